import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "../http/app-error.ts";
import { migrate, openDatabase, schemaVersion } from "./database.ts";
import { migrations } from "./migrations.ts";

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "console-store-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    fs.chmodSync(dir, 0o700);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

const newest = Math.max(...migrations.map((m) => m.version));
function tables(db: Database.Database): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[])
    .map((row) => row.name)
    .filter((name) => !name.startsWith("sqlite_"));
}

describe("console database migrations", () => {
  it("migration versions are unique", () => {
    const versions = migrations.map((m) => m.version);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it("an empty database is brought to the newest schema in WAL mode", () => {
    const db = openDatabase(path.join(tempDir(), "console.db"));
    expect(schemaVersion(db)).toBe(newest);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(tables(db)).toEqual(expect.arrayContaining(["settings", "users", "audit_log", "schema_migrations"]));
    db.close();
  });

  it("opening an up-to-date database twice changes nothing", () => {
    const file = path.join(tempDir(), "console.db");
    openDatabase(file).close();
    const db = openDatabase(file);
    const applied = db.prepare("SELECT COUNT(*) AS n FROM schema_migrations").get() as { n: number };
    expect(applied.n).toBe(migrations.length);
    db.close();
  });

  it("each migration upgrades the schema left by the ones before it, keeping stored rows", () => {
    const ordered = [...migrations].sort((a, b) => a.version - b.version);
    for (let i = 1; i < ordered.length; i++) {
      const file = path.join(tempDir(), `step-${i}.db`);
      const previous = openDatabase(file, ordered.slice(0, i));
      previous
        .prepare("INSERT INTO settings (key, value, updated_at) VALUES ('kept', 'yes', '2026-01-01T00:00:00Z')")
        .run();
      previous.close();
      const upgraded = openDatabase(file);
      expect(schemaVersion(upgraded)).toBe(newest);
      expect(upgraded.prepare("SELECT value FROM settings WHERE key = 'kept'").get()).toEqual({ value: "yes" });
      upgraded.close();
    }
  });

  it("a database made before schema_migrations existed (user_version only) upgrades without re-running old steps", () => {
    const file = path.join(tempDir(), "legacy.db");
    const legacy = new Database(file);
    const first = migrations.find((m) => m.version === 1)!;
    legacy.exec(first.sql);
    legacy.pragma("user_version = 1");
    legacy.close();
    const db = openDatabase(file);
    expect(schemaVersion(db)).toBe(newest);
    expect(tables(db)).toEqual(expect.arrayContaining(["users", "audit_log"]));
    db.close();
  });

  it("a lower-numbered migration that lands after a higher one still runs on existing databases", () => {
    const db = new Database(":memory:");
    migrate(db, [{ version: 31, name: "late area", sql: "CREATE TABLE late (id INTEGER);" }]);
    migrate(db, [
      { version: 31, name: "late area", sql: "CREATE TABLE late (id INTEGER);" },
      { version: 12, name: "early area, added later", sql: "CREATE TABLE early (id INTEGER);" },
    ]);
    expect(tables(db)).toEqual(expect.arrayContaining(["early", "late"]));
    expect(schemaVersion(db)).toBe(31);
  });

  it("a failing migration leaves the database at its previous schema", () => {
    const file = path.join(tempDir(), "console.db");
    openDatabase(file).close();
    const broken = [
      ...migrations,
      { version: 999, name: "broken", sql: "CREATE TABLE x (id INTEGER); SELEC nonsense;" },
    ];
    expect(() => openDatabase(file, broken)).toThrow(AppError);
    const db = new Database(file);
    expect(schemaVersion(db)).toBe(newest);
    expect(tables(db)).not.toContain("x");
    db.close();
  });
});

describe("start-up errors a person can act on", () => {
  it("a file that is not a database names the file and the way out", () => {
    const file = path.join(tempDir(), "console.db");
    fs.writeFileSync(file, "this is not a database, just text that got here somehow ".repeat(200));
    expect(() => openDatabase(file)).toThrow(/console\.db cannot be opened .*backup/);
  });

  it.skipIf(process.getuid?.() === 0)("an unwritable data directory names the directory and CONSOLE_DATA_DIR", () => {
    const dir = tempDir();
    fs.chmodSync(dir, 0o500);
    expect(() => openDatabase(path.join(dir, "console.db"))).toThrow(
      /data directory .* cannot be created or written.*CONSOLE_DATA_DIR/,
    );
  });

  it("a data directory path that is a file names the directory and CONSOLE_DATA_DIR", () => {
    const blocker = path.join(tempDir(), "not-a-dir");
    fs.writeFileSync(blocker, "");
    expect(() => openDatabase(path.join(blocker, "console.db"))).toThrow(
      /data directory .* cannot be created or written.*CONSOLE_DATA_DIR/,
    );
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { describeOnEmptyDatabases } from "../../tests/support/store/test-stores.ts";
import { openDatabase } from "./database.ts";
import { type Migration, migrations } from "./migrations.ts";
import { appliedMigrations, migrationName } from "./migrator.ts";
import type { Store } from "./store.ts";

const byVersion = [...migrations].sort((a, b) => a.version - b.version);
const allNames = byVersion.map(migrationName);

async function tables(store: Store): Promise<string[]> {
  const found = await store.introspection.getTables();
  return found.map((table) => table.name).sort();
}

const table = (version: number, name: string): Migration => ({
  version,
  name,
  up: async (db) => {
    await db.schema.createTable(name).addColumn("id", "integer").execute();
  },
});

describe("the console's migrations", () => {
  it("have unique versions", () => {
    const versions = migrations.map((m) => m.version);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it("are named in Kysely's migration table so that the names sort as the versions do", () => {
    expect([...allNames].sort()).toEqual(allNames);
  });
});

describeOnEmptyDatabases("migrating a store", (current) => {
  it("brings an empty database to the newest schema, each migration recorded once in Kysely's table", async () => {
    const store = current().open();
    expect(await appliedMigrations(store)).toEqual(allNames);
    expect(await tables(store)).toEqual(expect.arrayContaining(["settings", "users", "audit_log"]));
  });

  it("applies nothing again to an up-to-date database, and keeps its rows", async () => {
    const first = current().open();
    await first.insertInto("settings").values({ key: "kept", value: "yes", updated_at: "t" }).execute();
    const again = current().open();
    expect(await again.selectFrom("settings").select("value").execute()).toEqual([{ value: "yes" }]);
    expect(await appliedMigrations(again)).toEqual(allNames);
  });

  it("applies each migration on the schema the ones before it left, keeping stored rows", async () => {
    const first = current().open(byVersion.slice(0, 1));
    await first.insertInto("settings").values({ key: "kept", value: "yes", updated_at: "t" }).execute();
    for (let count = 2; count <= byVersion.length; count++) {
      const upgraded = current().open(byVersion.slice(0, count));
      expect(await appliedMigrations(upgraded, byVersion.slice(0, count))).toEqual(allNames.slice(0, count));
      expect(await upgraded.selectFrom("settings").select("value").execute()).toEqual([{ value: "yes" }]);
    }
  });

  it("runs a lower-numbered migration that lands after a higher one has been applied", async () => {
    await sql`SELECT 1`.execute(current().open([table(31, "late")]));
    const store = current().open([table(31, "late"), table(12, "early")]);
    expect(await tables(store)).toEqual(["early", "late"]);
  });

  it("leaves the database at its previous schema when a migration fails, with an error naming it", async () => {
    await sql`SELECT 1`.execute(current().open());
    const broken: Migration = {
      version: 999,
      name: "broken",
      up: async (db) => {
        await db.schema.createTable("x").addColumn("id", "integer").execute();
        await sql`SELEC nonsense`.execute(db);
      },
    };
    const store = current().open([...migrations, broken]);
    await expect(sql`SELECT 1`.execute(store)).rejects.toThrow(/cannot be opened \(.*syntax error/);
    const intact = current().open();
    expect(await tables(intact)).not.toContain("x");
    expect(await appliedMigrations(intact)).toEqual(allNames);
  });

  it("refuses a database that a newer console migrated, changing nothing", async () => {
    await sql`SELECT 1`.execute(current().open());
    const older = current().open(byVersion.slice(0, -1));
    await expect(sql`SELECT 1`.execute(older)).rejects.toThrow(
      new RegExp(
        `cannot be opened \\(corrupted migrations: previously executed migration ${allNames.at(-1)} is missing`,
      ),
    );
    expect(await appliedMigrations(current().open())).toEqual(allNames);
  });

  it("applies each migration once when stores on one database start together", async () => {
    const stores = Array.from({ length: 4 }, () => current().open());
    await Promise.all(stores.map((store) => sql`SELECT 1`.execute(store)));
    const rows = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(stores[0]!);
    expect(rows.rows.map((row) => row.name).sort()).toEqual(allNames);
  });
});

describe("start-up errors a person can act on", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "console-store-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) {
      fs.chmodSync(dir, 0o700);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a new database is in WAL mode", () => {
    const db = openDatabase(path.join(tempDir(), "console.db"));
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });

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

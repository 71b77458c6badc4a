import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { libpqEnvironment } from "../../scripts/backup/postgres-dump.ts";
import { backupConsole, backupDataDir } from "../../scripts/backup.ts";
import { openTestStore, testPostgresTools, testPostgresUrl } from "../../tests/support/store/test-stores.ts";
import { verifyCredentials } from "../auth/passwords.ts";
import { openDatabase } from "./database.ts";
import { sqliteStore } from "./sqlite-store.ts";

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, "../..");
const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "console-backup-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("npm run backup", () => {
  it("copies every SQLite database in the data directory, consistent while the console keeps writing", async () => {
    const dataDir = tempDir();
    const live = sqliteStore(openDatabase(path.join(dataDir, "console.db")));
    const setting = (key: string) => ({ key, value: "v", updated_at: "2026-01-01T00:00:00Z" });
    for (let i = 0; i < 500; i++)
      await live
        .insertInto("settings")
        .values(setting(`k${i}`))
        .execute();
    fs.writeFileSync(path.join(dataDir, "notes.txt"), "not a database");

    const [file, ...others] = await backupDataDir(
      dataDir,
      path.join(dataDir, "backups"),
      new Date("2026-11-30T18:00:00.123Z"),
    );
    await live.insertInto("settings").values(setting("after-backup")).execute();
    await live.destroy();

    expect(others).toEqual([]);
    expect(path.basename(file!)).toBe("console-20261130T180000Z.db");
    const copy = new Database(file!, { readonly: true });
    expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
    expect(copy.prepare("SELECT COUNT(*) AS n FROM settings").get()).toEqual({ n: 500 });
    copy.close();
  });

  it("an empty data directory is an error that says so", async () => {
    await expect(backupDataDir(tempDir(), tempDir())).rejects.toThrow(/No SQLite databases found/);
  });

  it("runs as a command and prints where the copy went", async () => {
    const dataDir = tempDir();
    openDatabase(path.join(dataDir, "console.db")).close();
    const { stdout } = await run("npx", ["tsx", "scripts/backup.ts"], {
      cwd: repo,
      env: { ...process.env, CONSOLE_DATA_DIR: dataDir },
    });
    expect(stdout).toMatch(new RegExp(`Backed up to ${dataDir}/backups/console-\\d{8}T\\d{6}Z\\.db`));
  });
});

describe("npm run backup with the store in PostgreSQL", () => {
  const server = testPostgresUrl();
  // pg_dump must be at least the server's version: the test server's own tools, found on PATH as an operator's are.
  const tools = testPostgresTools();
  const originalPath = process.env.PATH;
  beforeAll(() => {
    if (tools) process.env.PATH = `${tools}${path.delimiter}${originalPath}`;
  });
  afterAll(() => {
    process.env.PATH = originalPath;
  });
  it.skipIf("skipped" in server)(
    "dumps the database (restorable with pg_restore, every row there) next to the data directory's SQLite files",
    async () => {
      const source = await openTestStore("postgres");
      const restored = await openTestStore("postgres");
      try {
        if (!("postgresUrl" in source.location) || !("postgresUrl" in restored.location))
          throw new Error("not PostgreSQL");
        const rows = Array.from({ length: 300 }, (_, i) => ({
          key: `k${i}`,
          value: "v",
          updated_at: "2026-01-01T00:00:00Z",
        }));
        await source.store.insertInto("settings").values(rows).execute();
        const dataDir = tempDir();
        openDatabase(path.join(dataDir, "local-aws.db")).close();

        const files = await backupConsole(
          { dataDir, databaseUrl: source.location.postgresUrl },
          path.join(dataDir, "backups"),
          new Date("2026-11-30T18:00:00Z"),
        );

        expect(files.map((file) => path.basename(file))).toEqual([
          "console-20261130T180000Z.dump",
          "local-aws-20261130T180000Z.db",
        ]);
        expect(fs.statSync(files[0]!).mode & 0o777).toBe(0o600);
        await sql`DELETE FROM kysely_migration`.execute(restored.store);
        const target = libpqEnvironment(restored.location.postgresUrl);
        await run("pg_restore", ["--clean", "--if-exists", "--no-owner", `--dbname=${target.PGDATABASE}`, files[0]!], {
          env: { ...process.env, ...target },
        });
        const count = await restored.store
          .selectFrom("settings")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow();
        expect(count.n).toBe(300);
      } finally {
        await source.close();
        await restored.close();
      }
    },
  );

  it.skipIf("skipped" in server)(
    "a database it cannot reach is an error naming the host, never the password",
    async () => {
      await expect(
        backupConsole(
          { dataDir: tempDir(), databaseUrl: "postgres://console:hunter2-secret@127.0.0.1:9/console" },
          tempDir(),
        ),
      ).rejects.toThrow(/^pg_dump of 127\.0\.0\.1:9\/console failed: (?!.*hunter2)/);
    },
  );
});

describe("npm run users", () => {
  it("adds a user whose password (read from stdin) then signs in, and refuses a duplicate", async () => {
    const dataDir = tempDir();
    const env = { ...process.env, CONSOLE_DATA_DIR: dataDir };
    const add = (name: string) => {
      const child = execFile("npx", ["tsx", "scripts/users.ts", "add", name, "--role", "operator"], { cwd: repo, env });
      child.stdin!.end("a-long-enough-password\n");
      return new Promise<{ code: number | null; output: string }>((resolve) => {
        let output = "";
        child.stdout!.on("data", (d) => (output += d));
        child.stderr!.on("data", (d) => (output += d));
        child.on("close", (code) => resolve({ code, output }));
      });
    };
    expect(await add("ana")).toMatchObject({ code: 0, output: expect.stringContaining("Added ana (operator)") });
    expect(await add("ana")).toMatchObject({ code: 1, output: expect.stringContaining("already exists") });
    const store = sqliteStore(openDatabase(path.join(dataDir, "console.db")));
    expect(await verifyCredentials(store, "ana", "a-long-enough-password", {})).toEqual({
      name: "ana",
      role: "operator",
    });
    await store.destroy();
  });
});

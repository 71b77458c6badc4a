import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { afterEach, beforeEach, describe } from "vitest";
import { openDatabase } from "../../../server/store/database.ts";
import { postgresStore } from "../../../server/store/postgres-store.ts";
import { sqliteStore } from "../../../server/store/sqlite-store.ts";
import type { Store, StoreDialect } from "../../../server/store/store.ts";

const root = path.resolve(import.meta.dirname, "../../..");

/**
 * The PostgreSQL server the store tests use: CONSOLE_TEST_POSTGRES_URL, else the one `npm run pg:test-server`
 * (scripts/test-postgres.sh) started. Returns the reason when there is none; with POSTGRES_TESTS=required that
 * is an error, not a skip.
 */
export function testPostgresUrl(): { url: string } | { skipped: string } {
  if (process.env.CONSOLE_TEST_POSTGRES_URL) return { url: process.env.CONSOLE_TEST_POSTGRES_URL };
  const dir = path.join(root, ".postgres-tests");
  const read = (name: string) => fs.readFileSync(path.join(dir, name), "utf8").trim();
  let result: { url: string } | { skipped: string };
  try {
    result = { url: read("url") };
  } catch {
    let reason = "npm run pg:test-server has not run";
    try {
      reason = read("SKIPPED");
    } catch {}
    result = { skipped: reason };
  }
  if ("skipped" in result && process.env.POSTGRES_TESTS === "required") {
    throw new Error(`POSTGRES_TESTS=required but there is no PostgreSQL for the store tests: ${result.skipped}`);
  }
  return result;
}

/** A fresh, migrated, empty store of one dialect, and how to throw it away. */
export interface TestStore {
  dialect: StoreDialect;
  store: Store;
  /** A URL other processes can open the same store at (a console started on it). */
  location: { sqliteFile: string } | { postgresUrl: string };
  close(): Promise<void>;
}

export async function openTestStore(dialect: StoreDialect): Promise<TestStore> {
  if (dialect === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "console-store-"));
    const file = path.join(dir, "console.db");
    const store = sqliteStore(openDatabase(file));
    return {
      dialect,
      store,
      location: { sqliteFile: file },
      close: async () => {
        await store.destroy();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const server = testPostgresUrl();
  if ("skipped" in server) throw new Error(`no PostgreSQL for the store tests: ${server.skipped}`);
  const name = `console_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  const store = postgresStore(url.toString(), { maxConnections: 4 });
  await sql`SELECT 1`.execute(store);
  return {
    dialect,
    store,
    location: { postgresUrl: url.toString() },
    close: async () => {
      await store.destroy();
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}

/**
 * Declares `body` once per store dialect: SQLite always, PostgreSQL where a server is available (else a skipped
 * block whose title says why). `current()` is a fresh store for each test.
 */
export function describeOnStores(title: string, body: (current: () => TestStore) => void): void {
  for (const dialect of ["sqlite", "postgres"] as const) {
    const server = dialect === "postgres" ? testPostgresUrl() : null;
    if (server && "skipped" in server) {
      describe.skip(`${title} on PostgreSQL (skipped: ${server.skipped})`, () => body(() => unreachable()));
      continue;
    }
    describe(`${title} on ${dialect === "sqlite" ? "SQLite" : "PostgreSQL"}`, () => {
      let open: TestStore | null = null;
      beforeEach(async () => {
        open = await openTestStore(dialect);
      });
      afterEach(async () => {
        await open?.close();
        open = null;
      });
      body(() => open ?? unreachable());
    });
  }
}

function unreachable(): never {
  throw new Error("a store is only open while a test runs");
}

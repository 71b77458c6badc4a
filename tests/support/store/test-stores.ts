import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { afterEach, beforeEach, describe } from "vitest";
import { openDatabase } from "../../../server/store/database.ts";
import type { Migration } from "../../../server/store/migrations.ts";
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

/**
 * A new, empty database of one dialect (nothing migrated yet): `open` gives a store on it, migrated with
 * `migrations` (the console's by default) before its first query; `close` destroys those stores and the database.
 */
export interface EmptyDatabase {
  dialect: StoreDialect;
  location: { sqliteFile: string } | { postgresUrl: string };
  open(migrations?: readonly Migration[]): Store;
  close(): Promise<void>;
}

export async function openEmptyDatabase(dialect: StoreDialect): Promise<EmptyDatabase> {
  const opened: Store[] = [];
  const track = (store: Store) => {
    opened.push(store);
    return store;
  };
  const destroyOpened = () => Promise.all(opened.splice(0).map((store) => store.destroy()));
  if (dialect === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "console-store-"));
    const file = path.join(dir, "console.db");
    return {
      dialect,
      location: { sqliteFile: file },
      open: (migrations) => track(sqliteStore(openDatabase(file), { migrations })),
      close: async () => {
        await destroyOpened();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const database = await createTestPostgresDatabase("console_test");
  return {
    dialect,
    location: { postgresUrl: database.url },
    open: (migrations) => track(postgresStore(database.url, { migrations, maxConnections: 4 })),
    close: async () => {
      await destroyOpened();
      await database.drop();
    },
  };
}

/** A new database named `<prefix>_<random>` on the test server: its URL, and how to drop it (connections too). */
export async function createTestPostgresDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const server = testPostgresUrl();
  if ("skipped" in server) throw new Error(`no PostgreSQL for the store tests: ${server.skipped}`);
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export async function openTestStore(dialect: StoreDialect): Promise<TestStore> {
  const database = await openEmptyDatabase(dialect);
  const store = database.open();
  await sql`SELECT 1`.execute(store);
  return { dialect, store, location: database.location, close: database.close };
}

/**
 * Declares `body` once per store dialect: SQLite always, PostgreSQL where a server is available (else a skipped
 * block whose title says why). `current()` is a fresh store for each test.
 */
export function describeOnStores(title: string, body: (current: () => TestStore) => void): void {
  describeOnDialects(title, openTestStore, body);
}

/** As describeOnStores, with a new empty database (nothing migrated) for each test. */
export function describeOnEmptyDatabases(title: string, body: (current: () => EmptyDatabase) => void): void {
  describeOnDialects(title, openEmptyDatabase, body);
}

function describeOnDialects<T extends { close(): Promise<void> }>(
  title: string,
  open: (dialect: StoreDialect) => Promise<T>,
  body: (current: () => T) => void,
): void {
  for (const dialect of ["sqlite", "postgres"] as const) {
    const server = dialect === "postgres" ? testPostgresUrl() : null;
    if (server && "skipped" in server) {
      describe.skip(`${title} on PostgreSQL (skipped: ${server.skipped})`, () => body(() => unreachable()));
      continue;
    }
    describe(`${title} on ${dialect === "sqlite" ? "SQLite" : "PostgreSQL"}`, () => {
      let opened: T | null = null;
      beforeEach(async () => {
        opened = await open(dialect);
      });
      afterEach(async () => {
        await opened?.close();
        opened = null;
      });
      body(() => opened ?? unreachable());
    });
  }
}

function unreachable(): never {
  throw new Error("a store is only open while a test runs");
}

/** The bin directory of the PostgreSQL `npm run pg:test-server` runs (its pg_dump and pg_restore match the server). */
export function testPostgresTools(): string | undefined {
  try {
    return fs.readFileSync(path.join(root, ".postgres-tests", "bin"), "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

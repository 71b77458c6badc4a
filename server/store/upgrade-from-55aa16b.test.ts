import { sql } from "kysely";
import { afterEach, expect, it } from "vitest";
import { indexNames, schemaShape } from "../../tests/support/store/schema-shape.ts";
import {
  createStoreAt55aa16b,
  rowInEveryTable,
  type StoreAt55aa16b,
} from "../../tests/support/store/store-at-55aa16b.ts";
import { describeOnEmptyDatabases, type EmptyDatabase } from "../../tests/support/store/test-stores.ts";
import { openDatabase } from "./database.ts";
import { migrations } from "./migrations.ts";
import { appliedMigrations, migrationName } from "./migrator.ts";
import { postgresStore } from "./postgres-store.ts";
import { sqliteStore } from "./sqlite-store.ts";
import type { Store } from "./store.ts";

const numbered = new Set(["audit_log", "console_invocations"]);

describeOnEmptyDatabases("a store the console at 55aa16b migrated, opened by this console", (current) => {
  let old: StoreAt55aa16b | null = null;
  const opened: Store[] = [];
  const upgrade = async (): Promise<Store> => {
    old = await createStoreAt55aa16b(current().dialect);
    const store =
      "sqliteFile" in old.location
        ? sqliteStore(openDatabase(old.location.sqliteFile))
        : postgresStore(old.location.postgresUrl, { maxConnections: 2 });
    opened.push(store);
    return store;
  };
  const fresh = async (database: EmptyDatabase) => {
    const store = database.open();
    await sql`SELECT 1`.execute(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.destroy()));
    await old?.close();
    old = null;
  });

  it("keeps every row of every table", async () => {
    const store = await upgrade();
    for (const [table, row] of Object.entries(rowInEveryTable)) {
      const expected = numbered.has(table) ? { id: 1, ...row } : row;
      const columns = Object.keys(expected);
      const stored = await sql<
        Record<string, unknown>
      >`SELECT ${sql.join(columns.map((c) => sql.ref(c)))} FROM ${sql.table(table)}`.execute(store);
      expect({ table, stored: stored.rows }).toEqual({ table, stored: [expected] });
    }
  });

  it("records every migration as applied, without running one again", async () => {
    const store = await upgrade();
    expect(await appliedMigrations(store)).toEqual(
      [...migrations].sort((a, b) => a.version - b.version).map(migrationName),
    );
    const earlierRecord = await store.introspection.getTables();
    expect(earlierRecord.map((table) => table.name)).not.toContain("schema_migrations");
  });

  it("has the tables, columns, types, NULLs, keys and indexes a new store gets", async () => {
    const upgraded = await upgrade();
    const created = await fresh(current());
    expect(await schemaShape(upgraded)).toEqual(await schemaShape(created));
    expect(await indexNames(upgraded)).toEqual(await indexNames(created));
  });

  it("goes on numbering rows after the ones it holds", async () => {
    const store = await upgrade();
    const { id } = await store
      .insertInto("audit_log")
      .values({ at: "t", actor: "ana", action: "sign-in", target: "ana", result: "ok" })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect(id).toBe(2);
  });
});

import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { describeOnStores, openTestStore, testPostgresUrl } from "../../tests/support/store/test-stores.ts";
import { migrations } from "./migrations.ts";
import type { Store } from "./store.ts";

describeOnStores("a new store", (current) => {
  it("has every migration applied", async () => {
    const rows = await current().store.selectFrom("schema_migrations").select("version").orderBy("version").execute();
    expect(rows.map((row) => row.version)).toEqual(migrations.map((m) => m.version).sort((a, b) => a - b));
  });

  it("counts and sums are numbers, whatever the dialect", async () => {
    const { store } = current();
    await store
      .insertInto("captured_decisions")
      .values({
        endpoint_name: "e",
        object_key: "k",
        line: 1,
        item: 0,
        variant: "v",
        at_ms: 1_780_000_000_000,
        kind: "k",
        input_key: "i",
        chosen: "a",
        top_probability: 0.123456789012,
        probabilities: "[]",
        latency_ms: 1.5,
      })
      .execute();
    const row = await store
      .selectFrom("captured_decisions")
      .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.sum<number>("at_ms").as("total"), "top_probability"])
      .groupBy("top_probability")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ n: 1, total: 1_780_000_000_000, top_probability: 0.123456789012 });
    expect(await sql<{ one: number }>`SELECT 1 AS one`.execute(store)).toMatchObject({ rows: [{ one: 1 }] });
  });
});

interface ColumnShape {
  table: string;
  column: string;
  type: "integer" | "real" | "text";
  notNull: boolean;
  primaryKey: boolean;
}

const family = (declared: string): ColumnShape["type"] => {
  const type = declared.toLowerCase();
  if (/int/.test(type)) return "integer";
  if (/real|double|float|numeric/.test(type)) return "real";
  return "text";
};

async function sqliteShape(store: Store): Promise<ColumnShape[]> {
  const tables = await sql<{
    name: string;
  }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`.execute(store);
  const shape: ColumnShape[] = [];
  for (const { name } of tables.rows) {
    const columns = await sql<{
      name: string;
      type: string;
      notnull: number;
      pk: number;
    }>`SELECT * FROM pragma_table_info(${name})`.execute(store);
    for (const column of columns.rows) {
      shape.push({
        table: name,
        column: column.name,
        type: family(column.type),
        notNull: column.notnull === 1 || column.pk > 0,
        primaryKey: column.pk > 0,
      });
    }
  }
  return shape;
}

async function postgresShape(store: Store): Promise<ColumnShape[]> {
  const columns = await sql<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: string;
    primary_key: boolean;
  }>`
    SELECT c.table_name, c.column_name, c.data_type, c.is_nullable,
      EXISTS (
        SELECT 1 FROM information_schema.table_constraints t
        JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_name = t.table_name
        WHERE t.table_name = c.table_name AND t.constraint_type = 'PRIMARY KEY' AND k.column_name = c.column_name
      ) AS primary_key
    FROM information_schema.columns c WHERE c.table_schema = 'public'`.execute(store);
  return columns.rows.map((column) => ({
    table: column.table_name,
    column: column.column_name,
    type: family(column.data_type),
    notNull: column.is_nullable === "NO",
    primaryKey: column.primary_key,
  }));
}

const byName = (a: ColumnShape, b: ColumnShape) => `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`);

describe("both dialects' migrations", () => {
  const postgres = testPostgresUrl();
  it.skipIf("skipped" in postgres)("give the same tables, columns, types, NULLs and primary keys", async () => {
    const sqlite = await openTestStore("sqlite");
    const pg = await openTestStore("postgres");
    try {
      expect((await postgresShape(pg.store)).sort(byName)).toEqual((await sqliteShape(sqlite.store)).sort(byName));
    } finally {
      await sqlite.close();
      await pg.close();
    }
  });
});

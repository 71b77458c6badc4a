import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { indexNames, schemaShape } from "../../tests/support/store/schema-shape.ts";
import { describeOnStores, openTestStore, testPostgresUrl } from "../../tests/support/store/test-stores.ts";
import { migrations } from "./migrations.ts";
import { appliedMigrations, migrationName } from "./migrator.ts";

describeOnStores("a new store", (current) => {
  it("has every migration applied", async () => {
    expect(await appliedMigrations(current().store)).toEqual(
      [...migrations].sort((a, b) => a.version - b.version).map(migrationName),
    );
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

describe("the migrations as Kysely's schema builder renders them for each dialect", () => {
  const postgres = testPostgresUrl();
  it.skipIf("skipped" in postgres)(
    "give the same tables, columns, types, NULLs, primary keys and indexes",
    async () => {
      const sqlite = await openTestStore("sqlite");
      const pg = await openTestStore("postgres");
      try {
        expect(await schemaShape(pg.store)).toEqual(await schemaShape(sqlite.store));
        const named = (names: string[]) => names.filter((name) => !/\.(sqlite_autoindex_|.*_(pkey|key)$)/.test(name));
        expect(named(await indexNames(pg.store))).toEqual(named(await indexNames(sqlite.store)));
      } finally {
        await sqlite.close();
        await pg.close();
      }
    },
  );
});

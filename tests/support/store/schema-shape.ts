import { sql } from "kysely";
import { storeDialect } from "../../../server/store/dialect.ts";
import type { Store } from "../../../server/store/store.ts";

/** A column as both dialects can be compared by: its type family, whether it takes NULL, whether it is keyed. */
export interface ColumnShape {
  table: string;
  column: string;
  type: "integer" | "real" | "text";
  notNull: boolean;
  primaryKey: boolean;
}

/** The family a declared type reads as (SQLite's type affinity rules; PostgreSQL's types by name). */
export const typeFamily = (declared: string): ColumnShape["type"] => {
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
        type: typeFamily(column.type),
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
    type: typeFamily(column.data_type),
    notNull: column.is_nullable === "NO",
    primaryKey: column.primary_key,
  }));
}

const byName = (a: ColumnShape, b: ColumnShape) => `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`);

/** Every column of every table in `store` (Kysely's migration tables included), by table and column name. */
export async function schemaShape(store: Store): Promise<ColumnShape[]> {
  const shape = storeDialect(store) === "postgres" ? await postgresShape(store) : await sqliteShape(store);
  return shape.sort(byName);
}

/** The names of `store`'s indexes, with the table each is on. */
export async function indexNames(store: Store): Promise<string[]> {
  const rows =
    storeDialect(store) === "postgres"
      ? await sql<{
          name: string;
        }>`SELECT tablename || '.' || indexname AS name FROM pg_indexes WHERE schemaname = 'public'`.execute(store)
      : await sql<{
          name: string;
        }>`SELECT tbl_name || '.' || name AS name FROM sqlite_master WHERE type = 'index'`.execute(store);
  return rows.rows.map((row) => row.name).sort();
}

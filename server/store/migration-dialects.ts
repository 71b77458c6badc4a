import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, sql } from "kysely";
import { storeDialect } from "./dialect.ts";

/**
 * The database a migration is given. Kysely's schema builder renders every statement for the dialect it runs on;
 * the two helpers below are the only places where the console's schema is spelt differently per dialect.
 */
export type MigrationDatabase = Kysely<unknown>;

/**
 * A key the database numbers. In SQLite only a column declared exactly INTEGER PRIMARY KEY is the table's 64-bit
 * rowid, and AUTOINCREMENT keeps it from reusing a deleted row's id; PostgreSQL has no AUTOINCREMENT and numbers
 * rows with an identity column instead (BIGINT, as wide as SQLite's rowid).
 */
export function addIdentityColumn<T extends string, C extends string>(
  db: MigrationDatabase,
  table: CreateTableBuilder<T, C>,
  column: string,
): CreateTableBuilder<T, C> {
  return storeDialect(db) === "postgres"
    ? table.addColumn(column, "bigint", (col: ColumnDefinitionBuilder) =>
        col.generatedByDefaultAsIdentity().primaryKey(),
      )
    : table.addColumn(column, "integer", (col: ColumnDefinitionBuilder) => col.primaryKey().autoIncrement());
}

/**
 * A table whose rows are found by their primary key alone is stored WITHOUT ROWID in SQLite: one B-tree keyed by
 * the primary key instead of a rowid table plus an index. PostgreSQL has no such choice (every table is a heap
 * with separate indexes), so there the table is created as it is.
 */
export function keyedByPrimaryKey(db: MigrationDatabase) {
  return <T extends string, C extends string>(table: CreateTableBuilder<T, C>): CreateTableBuilder<T, C> =>
    storeDialect(db) === "postgres" ? table : table.modifyEnd(sql`without rowid`);
}

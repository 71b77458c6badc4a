import {
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  type Kysely,
  MIGRATION_LOCK_ID,
  type MigrationProvider,
  Migrator,
} from "kysely";
import { migrations as consoleMigrations, type Migration } from "./migrations.ts";

/** The table the console's own runner recorded versions in, before Kysely's Migrator took over. */
const EARLIER_RECORD = "schema_migrations";

/** How Kysely's migration table names a migration: by version first, so its names sort as the versions do. */
export function migrationName(migration: Migration): string {
  return `${String(migration.version).padStart(4, "0")}_${migration.name.replaceAll(/[^a-z0-9]+/gi, "_")}`;
}

const provider = (list: readonly Migration[]): MigrationProvider => ({
  getMigrations: async () => Object.fromEntries(list.map((migration) => [migrationName(migration), migration])),
});

/**
 * Brings `db` to the newest schema with Kysely's Migrator: under its lock (an advisory lock on PostgreSQL, so
 * replicas that start together apply each migration once; on SQLite the migration connection's BEGIN IMMEDIATE,
 * see sqlite-store.ts), in one transaction, so a failing step leaves the schema as it was. Unordered migrations
 * are allowed because areas own separate version ranges: a migration 12 that lands after 31 has shipped still
 * runs on databases already at 31.
 */
export async function migrateStore(db: Kysely<unknown>, list: readonly Migration[] = consoleMigrations): Promise<void> {
  await adoptEarlierRecord(db, list);
  const migrator = new Migrator({ db, provider: provider(list), allowUnorderedMigrations: true });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/** The names of the migrations applied to `db`, in the order Kysely applied them. */
export async function appliedMigrations<DB>(db: Kysely<DB>, list: readonly Migration[] = consoleMigrations) {
  const all = await new Migrator({ db, provider: provider(list), allowUnorderedMigrations: true }).getMigrations();
  return all.filter((migration) => migration.executedAt).map((migration) => migration.name);
}

async function hasTable(db: Kysely<unknown>, name: string): Promise<boolean> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  return tables.some((table) => table.name === name);
}

/**
 * A store migrated by the console's earlier runner (up to commit 55aa16b) lists its applied versions in
 * schema_migrations. Under the Migrator's lock, those versions are written into Kysely's migration table as already
 * applied (with the time they were) and the earlier table is dropped, so the Migrator runs none of them again.
 * A version this console does not know means a newer console migrated the store: that is refused, changing nothing.
 */
async function adoptEarlierRecord(db: Kysely<unknown>, list: readonly Migration[]): Promise<void> {
  if (!(await hasTable(db, EARLIER_RECORD))) return;
  await db.transaction().execute(async (trx) => {
    await trx
      .getExecutor()
      .adapter.acquireMigrationLock(trx, { lockTable: DEFAULT_MIGRATION_LOCK_TABLE, lockRowId: MIGRATION_LOCK_ID });
    if (!(await hasTable(trx, EARLIER_RECORD))) return;
    const recorded = await trx
      .withTables<{ [EARLIER_RECORD]: { version: number; name: string; applied_at: string } }>()
      .selectFrom(EARLIER_RECORD)
      .selectAll()
      .orderBy("version")
      .execute();
    const adopted = recorded.map((row) => {
      const migration = list.find((candidate) => candidate.version === row.version);
      if (!migration) {
        throw new Error(
          `migration ${row.version} (${row.name}) was applied by a newer console than this one; run that console, or restore a backup this console made`,
        );
      }
      return { name: migrationName(migration), timestamp: new Date(row.applied_at).toISOString() };
    });
    // The same table Kysely's Migrator creates when it finds none (name and timestamp, both varchar(255)).
    await trx.schema
      .createTable(DEFAULT_MIGRATION_TABLE)
      .ifNotExists()
      .addColumn("name", "varchar(255)", (col) => col.notNull().primaryKey())
      .addColumn("timestamp", "varchar(255)", (col) => col.notNull())
      .execute();
    const kyselyTable = trx.withTables<{ [DEFAULT_MIGRATION_TABLE]: { name: string; timestamp: string } }>();
    if (adopted.length > 0) {
      await kyselyTable
        .insertInto(DEFAULT_MIGRATION_TABLE)
        .values(adopted)
        .onConflict((conflict) => conflict.column("name").doNothing())
        .execute();
    }
    await trx.schema.dropTable(EARLIER_RECORD).execute();
  });
}

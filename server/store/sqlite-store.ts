import type Database from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  Kysely,
  SqliteAdapter,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from "kysely";
import { unopenableDatabase } from "./database.ts";
import type { Migration } from "./migrations.ts";
import { migrateStore } from "./migrator.ts";
import type { Store } from "./store.ts";

/**
 * Kysely's SQLite adapter runs migrations outside a transaction and takes no lock, yet SQLite's schema changes are
 * transactional like any other write, and two processes may open one file (the console and `npm run users`).
 * Migrations here run in one transaction begun IMMEDIATE: SQLite takes the database's write lock at BEGIN, so a
 * second process waits for it (busy_timeout) and then reads what the first applied, and a failing step rolls back.
 */
class MigrationSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver() {
    return new (class extends SqliteDriver {
      override async beginTransaction(connection: DatabaseConnection) {
        await connection.executeQuery(CompiledQuery.raw("begin immediate"));
      }
    })(this.#config);
  }
  override createAdapter() {
    return new (class extends SqliteAdapter {
      override get supportsTransactionalDdl() {
        return true;
      }
    })();
  }
}

/**
 * The migration running on each database file in this process. A second store opened on the same file waits for
 * it: BEGIN IMMEDIATE would otherwise block this thread on a lock that only this same thread can release.
 */
const migrating = new Map<string, Promise<unknown>>();

/** Enough for every query the console writes; past it the oldest is prepared again on its next run. */
const mostPrepared = 1_000;

/**
 * `db` as Kysely's SQLite driver sees it, each query's SQL prepared once: the driver prepares on every run, which for
 * the gateway's admission upsert took longer than running it (43 µs of 58). A statement still being read by a
 * streamed query is busy, so a second run of its SQL meanwhile gets a statement of its own.
 */
function preparedOnce(db: Database.Database): SqliteDatabase {
  const prepared = new Map<string, Database.Statement>();
  return {
    close: () => db.close(),
    prepare(sql) {
      const kept = prepared.get(sql);
      if (kept && !kept.busy) return kept;
      const statement = db.prepare(sql);
      if (!kept) {
        if (prepared.size >= mostPrepared) prepared.delete(prepared.keys().next().value as string);
        prepared.set(sql, statement);
      }
      return statement;
    },
  };
}

export interface SqliteStoreOptions {
  migrations?: readonly Migration[];
}

/**
 * The console's store on an open SQLite database (openDatabase: private files, WAL). Its first query waits for the
 * database to be migrated; one that cannot be fails that query with an error naming the file. Kysely runs every
 * query on this one connection in turn, a transaction holding it throughout, so transactions never interleave.
 */
export function sqliteStore(db: Database.Database, options: SqliteStoreOptions = {}): Store {
  const migrated = async () => {
    // Not destroyed afterwards: that would close `db`, which the store goes on using.
    const migration = new Kysely<unknown>({ dialect: new MigrationSqliteDialect({ database: db }) });
    const previous = migrating.get(db.name) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => migrateStore(migration, options.migrations));
    migrating.set(db.name, run);
    try {
      await run;
    } catch (error) {
      throw unopenableDatabase(db.name, error);
    } finally {
      if (migrating.get(db.name) === run) migrating.delete(db.name);
    }
    return db;
  };
  return new Kysely({ dialect: new SqliteDialect({ database: async () => preparedOnce(await migrated()) }) });
}

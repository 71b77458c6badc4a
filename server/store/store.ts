import type { Kysely, Transaction } from "kysely";
import type { ConsoleTables } from "./schema.ts";

/**
 * The console's store: one typed query layer (Kysely) over SQLite, the embedded default for one machine, or
 * PostgreSQL, for a console that more than one replica serves (CONSOLE_DATABASE_URL). Store modules take a Store
 * and write each query once, for both.
 */
export type Store = Kysely<ConsoleTables>;

/** A transaction is a Store too: store functions run inside one unchanged. */
export type StoreTransaction = Transaction<ConsoleTables>;

export type StoreDialect = "sqlite" | "postgres";

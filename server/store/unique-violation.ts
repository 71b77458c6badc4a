/**
 * Whether a failed write broke a PRIMARY KEY or UNIQUE constraint: better-sqlite3 says so in its error code,
 * PostgreSQL in SQLSTATE 23505 (unique_violation).
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "23505";
}

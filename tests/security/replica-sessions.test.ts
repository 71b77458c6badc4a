import { describe, expect, it } from "vitest";
import { hashPassword } from "@/server/auth/passwords.ts";
import { type AuthContext, principalOf } from "@/server/auth/principal.ts";
import { revokeSession } from "@/server/auth/revocation.ts";
import { sessionKey, signSession, verifySessionToken } from "@/server/auth/session.ts";
import { insertUser } from "@/server/auth/users.ts";
import { readConsoleConfig } from "@/server/config.ts";
import { postgresStore } from "@/server/store/postgres-store.ts";
import { openTestStore, testPostgresUrl } from "../support/store/test-stores.ts";

/**
 * Issue 35, part 4: behind a load balancer each request may reach another console replica. A session signed by one
 * is honoured by every other (they share CONSOLE_SESSION_SECRET), a role changed through one holds on all (read from
 * the shared store on every request), and a session signed out on one is refused by all (revocations are stored).
 */
describe("sessions across two console replicas on one PostgreSQL database", () => {
  const postgres = testPostgresUrl();
  it.skipIf("skipped" in postgres)("are honoured, re-read and revoked on every replica", async () => {
    const shared = await openTestStore("postgres");
    if (!("postgresUrl" in shared.location)) throw new Error("not PostgreSQL");
    const second = postgresStore(shared.location.postgresUrl);
    try {
      const config = readConsoleConfig({
        CONSOLE_SESSION_SECRET: "replica-session-secret-that-is-long-enough-0123",
        CONSOLE_DATABASE_URL: shared.location.postgresUrl,
      });
      const a: AuthContext = { store: shared.store, config };
      const b: AuthContext = { store: second, config };
      await insertUser(a.store, {
        name: "rita",
        role: "operator",
        passwordHash: await hashPassword("rita-password-long"),
      });
      const token = await signSession({ name: "rita", role: "operator", source: "password" }, sessionKey(config));
      const request = () =>
        new Request("https://console.example.com/api/endpoints", { headers: { cookie: `dc_session=${token}` } });

      expect(await principalOf(request(), a)).toMatchObject({ name: "rita", role: "operator" });
      expect(await principalOf(request(), b)).toMatchObject({ name: "rita", role: "operator" });

      await b.store.updateTable("users").set({ role: "viewer" }).where("name", "=", "rita").execute();
      expect(await principalOf(request(), a)).toMatchObject({ role: "viewer" });

      const verified = await verifySessionToken(token, sessionKey(config));
      await revokeSession(a.store, verified!.id, verified!.expiresAt);
      expect(await principalOf(request(), b)).toBeNull();
    } finally {
      await second.destroy();
      await shared.close();
    }
  });
});

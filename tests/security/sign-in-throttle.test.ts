import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as loginRoute } from "@/app/api/auth/login/route.ts";
import { createLoginThrottle, loginBudgets } from "@/server/auth/rate-limit.ts";
import { PEER_ADDRESS_HEADER } from "@/server/http/forwarded.ts";
import { postgresStore } from "@/server/store/postgres-store.ts";
import { describeOnStores, openTestStore, testPostgresUrl } from "../support/store/test-stores.ts";
import { addUser, consoleOrigin, useTemporaryConsole } from "./support.ts";

/**
 * Issue 12, Medium 8: sign-in was throttled by user name only, so 5 wrong passwords locked the real user out and
 * spraying many names was never throttled. Now: per (address, name), per address, and one global ceiling.
 */

describeOnStores("the sign-in throttle", (current) => {
  let now = 0;
  const throttle = () => createLoginThrottle(current().store, loginBudgets, () => now);

  it("slows guessing one name from one address, without locking that name out from another address", async () => {
    const limits = throttle();
    const guesses = [];
    for (let i = 0; i < 6; i++) guesses.push(await limits.take("10.0.0.66", "vic"));
    expect(guesses.slice(0, 5).every((attempt) => attempt.allowed)).toBe(true);
    expect(guesses[5]).toEqual({ allowed: false, retryAfterSeconds: 6, limit: "addressAndName" });
    expect((await limits.take("10.0.0.7", "vic")).allowed).toBe(true);
    expect((await limits.take("10.0.0.66", "olga")).allowed).toBe(true);
    now += 6_000;
    expect((await limits.take("10.0.0.66", "vic")).allowed).toBe(true);
  });

  it("slows one address spraying many names", async () => {
    const limits = throttle();
    const sprayed = [];
    for (let i = 0; i < 21; i++) sprayed.push(await limits.take("10.0.0.66", `user-${i}`));
    expect(sprayed.filter((attempt) => attempt.allowed)).toHaveLength(20);
    expect(sprayed[20]).toMatchObject({ allowed: false, limit: "address", retryAfterSeconds: 2 });
    expect((await limits.take("10.0.0.7", "user-0")).allowed).toBe(true);
  });

  it("caps everyone together, and a refused attempt spends nothing anywhere", async () => {
    const limits = throttle();
    const many = [];
    for (let i = 0; i < 61; i++) many.push(await limits.take(`10.1.${i >> 8}.${i & 255}`, "vic"));
    expect(many.filter((attempt) => attempt.allowed)).toHaveLength(60);
    expect(many[60]).toMatchObject({ allowed: false, limit: "everyone", retryAfterSeconds: 1 });
    // Hammering while refused does not push the ceiling further away.
    for (let i = 0; i < 100; i++) await limits.take("10.9.9.9", `n-${i}`);
    now += 500;
    expect((await limits.take("10.2.0.1", "vic")).allowed).toBe(true);
  });

  it("attempts arriving at once are each counted: of 12 concurrent guesses exactly 5 get through", async () => {
    const limits = throttle();
    const guesses = await Promise.all(Array.from({ length: 12 }, () => limits.take("10.0.0.99", "vic")));
    expect(guesses.filter((attempt) => attempt.allowed)).toHaveLength(5);
  });
});

describe("the sign-in throttle across two replicas on one PostgreSQL database", () => {
  it.skipIf("skipped" in testPostgresUrl())(
    "guesses spread over two replicas spend from the same buckets: still 5 per address and name",
    async () => {
      const shared = await openTestStore("postgres");
      if (!("postgresUrl" in shared.location)) throw new Error("not PostgreSQL");
      const other = postgresStore(shared.location.postgresUrl);
      try {
        const replicas = [createLoginThrottle(shared.store), createLoginThrottle(other)];
        const guesses = await Promise.all(
          Array.from({ length: 10 }, (_, i) => replicas[i % 2]!.take("10.0.0.66", "vic")),
        );
        expect(guesses.filter((attempt) => attempt.allowed)).toHaveLength(5);
        expect(await replicas[1]!.take("10.0.0.66", "vic")).toMatchObject({ allowed: false, limit: "addressAndName" });
      } finally {
        await other.destroy();
        await shared.close();
      }
    },
  );
});

describe("POST /api/auth/login behind the throttle", () => {
  let temp: ReturnType<typeof useTemporaryConsole>;
  beforeAll(async () => {
    temp = useTemporaryConsole();
    await addUser("vera", "viewer");
  });
  afterAll(() => temp.restore());

  const login = (peer: string, name: string, password: string, headers: Record<string, string> = {}) =>
    loginRoute(
      new Request(new URL("/api/auth/login", consoleOrigin), {
        method: "POST",
        headers: { "content-type": "application/json", [PEER_ADDRESS_HEADER]: peer, ...headers },
        body: JSON.stringify({ name, password }),
      }),
    );

  it("locks the guessing address out of the name with 429 and Retry-After; the owner signs in from elsewhere", async () => {
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 8; i++) {
      // A client that forges X-Forwarded-For on every attempt is still keyed by its TCP peer address.
      const response = await login("127.0.0.66", "vera", `wrong-guess-${i}-x`, { "x-forwarded-for": `10.6.6.${i}` });
      statuses.push(response.status);
      if (response.status === 429) refused = response;
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expect(refused?.headers.get("Retry-After")).toMatch(/^[1-9]\d*$/);
    expect(((await refused!.json()) as { error: { message: string } }).error.message).toMatch(
      /^Too many sign-in attempts for vera from your address; wait \d+ s\.$/,
    );
    const owner = await login("127.0.0.7", "vera", "vera-password-long");
    expect(owner.status).toBe(200);
    const fiveHundreds = statuses.filter((status) => status >= 500).length;
    console.log(
      `sign-in probe: ${statuses.length + 1} requests, ${statuses.filter((s) => s === 429).length} refused with 429, ` +
        `the owner from another address: ${owner.status}, 5xx: ${fiveHundreds}`,
    );
    expect(fiveHundreds).toBe(0);
  });

  it("behind a trusted proxy, keys attempts by the client address the proxy forwarded", async () => {
    process.env.CONSOLE_TRUSTED_PROXIES = "127.0.0.1";
    try {
      const viaProxy = (client: string, i: number) =>
        login("127.0.0.1", "vera", `wrong-guess-${i}-y`, { "x-forwarded-for": `${client}, 127.0.0.1` });
      const first = [];
      for (let i = 0; i < 6; i++) first.push((await viaProxy("203.0.113.5", i)).status);
      expect(first.at(-1)).toBe(429);
      expect((await viaProxy("198.51.100.9", 0)).status).toBe(401);
    } finally {
      delete process.env.CONSOLE_TRUSTED_PROXIES;
    }
  });
});

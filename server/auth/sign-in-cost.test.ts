import { hash, verify } from "@node-rs/argon2";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestStore, type TestStore } from "../../tests/support/store/test-stores.ts";
import { hashCost, hashPassword, verifyCredentials } from "./passwords.ts";

/** The hashes the real argon2 verified passwords against, in order. */
const verified: string[] = [];
const recordingVerify = (encoded: string, password: string) => {
  verified.push(encoded);
  return verify(encoded, password);
};

let testStore: TestStore;
let settings: { CONSOLE_USERS: string };
let standardCost: string;

beforeAll(async () => {
  testStore = await openTestStore("sqlite");
  const hashed = await hashPassword("hashed-password-1");
  standardCost = hashCost(hashed);
  settings = {
    CONSOLE_USERS: JSON.stringify([
      { name: "hashed", role: "operator", passwordHash: hashed },
      { name: "plain", role: "viewer", password: "plain-password-1" },
    ]),
  };
});
afterAll(() => testStore.close());
beforeEach(() => {
  verified.length = 0;
});

/** The costs of the hashes one failed sign-in verified against. */
async function costsVerified(name: string): Promise<string[]> {
  expect(await verifyCredentials(testStore.store, name, "wrong-password-9", settings, recordingVerify)).toBeNull();
  return verified.map(hashCost);
}

async function medianMs(name: string, attempts = 7): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < attempts; i++) {
    const start = performance.now();
    await verifyCredentials(testStore.store, name, "wrong-password-9", settings);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(attempts / 2)]!;
}

describe("a failed sign-in costs the same whatever the name (issue 51, item 6)", () => {
  it("an unknown name is verified once, against a hash of hashPassword's cost", async () => {
    expect(await costsVerified("nobody")).toEqual([standardCost]);
  });

  it("a user with a hash of hashPassword's cost is verified once, against that hash", async () => {
    expect(await costsVerified("hashed")).toEqual([standardCost]);
  });

  it("a settings user with a plain password is verified against a hash of hashPassword's cost too", async () => {
    expect(await costsVerified("plain")).toEqual([standardCost]);
  });

  it("a user whose hash has another cost is verified against a hash of hashPassword's cost as well", async () => {
    const cheap = await hash("cheap-password-1", { memoryCost: 1024, timeCost: 1 });
    const cheapSettings = { CONSOLE_USERS: JSON.stringify([{ name: "cheap", role: "viewer", passwordHash: cheap }]) };
    expect(
      await verifyCredentials(testStore.store, "cheap", "wrong-password-9", cheapSettings, recordingVerify),
    ).toBeNull();
    expect(verified.map(hashCost)).toContain(standardCost);
  });

  it("a plain-password user's failed sign-in takes about as long as an unknown name's", async () => {
    await medianMs("nobody", 1);
    const unknown = await medianMs("nobody");
    const plain = await medianMs("plain");
    // Loose on purpose (a shared, loaded machine): before the fix, plain took about a quarter of unknown.
    expect(plain).toBeGreaterThan(unknown * 0.5);
  });
});

import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Engine } from "../src/engine/engine.ts";
import { createAdapterServer } from "../src/http/server.ts";

const config = {
  maxBodyBytes: 262_144,
  maxInFlight: 1,
  parallel: 1,
  bodyTimeoutMs: 1_000,
  maxBodyReaders: 4,
  maxBodyReadersPerPeer: 4,
};

describe("the adapter's log of health checks", () => {
  let close: () => Promise<void> = async () => {};
  afterEach(() => close());

  it("writes a ping's line only when its answer changes: once while loading, once when ready", async () => {
    const lines: Record<string, unknown>[] = [];
    let engine: Engine | null = null;
    const server = createAdapterServer({ routes: [], config, engine: () => engine, log: (line) => lines.push(line) });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ping`;
    const ping = async () => (await fetch(url)).status;

    const whileLoading = [await ping(), await ping(), await ping()];
    engine = {} as Engine;
    const whenReady = [await ping(), await ping()];

    expect([...whileLoading, ...whenReady]).toEqual([503, 503, 503, 200, 200]);
    expect(lines.filter((line) => line.route === "ping").map((line) => line.status)).toEqual([503, 200]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUSY_ERROR } from "../src/contract/common.ts";
import {
  decision,
  type GeneratedModel,
  generateModel,
  postJson,
  rawRequest,
  sleep,
  startTestAdapter,
  type TestAdapter,
  trickle,
} from "./support/adapter-harness.ts";

/**
 * The outside probe of issue 12 (Medium 7): 8 sockets trickling their bodies at 1 byte every 0.5 s took every body
 * slot for 33 s while /ping said healthy. Default settings (in-flight 1: 8 body slots, 4 per client address,
 * ADAPTER_BODY_TIMEOUT_MS 5000), loopback only; the probe's sockets come from 127.0.0.1, a well-behaved client
 * from 127.0.0.2.
 */

let model: GeneratedModel;
let adapter: TestAdapter;

beforeAll(async () => {
  model = generateModel("tiny");
  adapter = await startTestAdapter(model.file, { SEMIF_MAX_TOKENS: "1024" });
});

afterAll(async () => {
  await adapter?.close();
  model?.cleanup();
});

describe("eight sockets trickling their bodies at 1 byte every 0.5 s", () => {
  it("hold at most their address's share of body slots, for at most 5 s, then get 408; /ping's 200 stays true", async () => {
    expect(adapter.engine.config).toMatchObject({ bodyTimeoutMs: 5000, maxBodyReaders: 8, maxBodyReadersPerPeer: 4 });
    const body = JSON.stringify({ decision: decision() });
    const started = performance.now();
    const probe = Array.from({ length: 8 }, () => trickle(adapter.url, body, 500, "127.0.0.1"));
    const tally = new Map<number, number>();
    const count = (status: number) => tally.set(status, (tally.get(status) ?? 0) + 1);
    try {
      await sleep(500);
      // While the probe runs: /ping is fast and healthy, and that is true for a client at another address.
      const ping = await rawRequest(adapter.url, { method: "GET", path: "/ping" });
      count(ping.status);
      expect(ping.status).toBe(200);
      const other = await postJson(adapter.url, { decision: decision({ id: "other-client" }) }, {}, "127.0.0.2");
      count(other.status);
      expect(other.status, JSON.stringify(other.body)).toBe(200);
      // The probing address itself is over its share until its bodies time out.
      const same = await postJson(adapter.url, { decision: decision({ id: "same-address" }) }, {}, "127.0.0.1");
      count(same.status);
      expect(same).toMatchObject({ status: 503, body: BUSY_ERROR });

      const statuses = await Promise.all(probe.map((socket) => socket.status));
      const seconds = (performance.now() - started) / 1000;
      for (const status of statuses) count(status);
      expect(statuses.filter((status) => status === 503)).toHaveLength(4);
      const timedOut = await Promise.all(probe.filter((_, i) => statuses[i] === 408).map((socket) => socket.closed));
      expect(timedOut).toHaveLength(4);
      for (const answer of timedOut)
        expect(answer.text).toContain('{"error":"Request body did not arrive within 5000 ms"}');
      expect(seconds).toBeLessThan(10);

      // Once they are gone the probing address is served again.
      const after = await postJson(adapter.url, { decision: decision({ id: "after" }) }, {}, "127.0.0.1");
      count(after.status);
      expect(after.status).toBe(200);
      const requests = [...tally.values()].reduce((sum, n) => sum + n, 0);
      const errors = [...tally.entries()].filter(([status]) => status >= 500 && status !== 503);
      console.log(
        `slow-body probe: ${requests} requests, statuses ${JSON.stringify(Object.fromEntries(tally))}, ` +
          `408 after ${seconds.toFixed(1)} s, 5xx other than 503 busy: ${errors.length}`,
      );
      expect(errors).toEqual([]);
    } finally {
      for (const socket of probe) socket.socket.destroy();
    }
  }, 30_000);
});

import { expect, it } from "vitest";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import { recentInvocations, recordInvocation } from "./invocation-log.ts";

const outcome = (endpointName: string, status = 200) => ({
  endpointName,
  stream: false,
  status,
  latencyMs: 12.5,
  retries: 0,
  requestBody: JSON.stringify({ decision: { id: "x".repeat(3000) } }),
  error: null,
  user: "ops",
});

describeOnStores("invocation log", (current) => {
  it("lists one endpoint's invocations newest first with a 2 KB preview of the request", async () => {
    const { store } = current();
    await recordInvocation(store, outcome("a", 200), new Date("2026-11-30T10:00:00Z"));
    await recordInvocation(store, outcome("b", 200));
    await recordInvocation(store, outcome("a", 503), new Date("2026-11-30T10:01:00Z"));
    const list = await recentInvocations(store, "a");
    expect(list.map((r) => [r.status, r.at])).toEqual([
      [503, "2026-11-30T10:01:00.000Z"],
      [200, "2026-11-30T10:00:00.000Z"],
    ]);
    expect(list[0]?.requestPreview).toHaveLength(2048);
    expect(list[0]?.requestBytes).toBe(outcome("a").requestBody.length);
    expect(list[0]).toMatchObject({ stream: false, latencyMs: 12.5, retries: 0, error: null, user: "ops" });
  });

  it("keeps the newest 200 per endpoint", async () => {
    const { store } = current();
    for (let i = 0; i < 205; i++) await recordInvocation(store, { ...outcome("a"), latencyMs: i });
    const kept = await recentInvocations(store, "a", 500);
    expect(kept).toHaveLength(200);
    expect(kept[0]?.latencyMs).toBe(204);
    expect(kept.at(-1)?.latencyMs).toBe(5);
  });
});

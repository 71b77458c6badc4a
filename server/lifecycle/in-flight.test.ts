import { afterEach, describe, expect, it } from "vitest";
import { route } from "../http/route.ts";
import { drain, isDraining } from "./in-flight.ts";

afterEach(() => {
  (globalThis as { __consoleInFlight?: unknown }).__consoleInFlight = undefined;
});

describe("a console process that is stopping", () => {
  it("lets the requests in flight finish, then answers new ones 503 with a reason", async () => {
    let finish: () => void = () => {};
    const slow = route(async () => {
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      return new Response("done");
    });
    const inFlight = slow(new Request("http://127.0.0.1/api/x"));
    await new Promise((resolve) => setTimeout(resolve, 10));
    const drained = drain(5_000);
    expect(isDraining()).toBe(true);

    const refused = await slow(new Request("http://127.0.0.1/api/x"));
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({
      error: { code: "unavailable", message: "This console process is shutting down; send the request again." },
    });

    let settled = false;
    void drained.then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    finish();
    expect(await (await inFlight).text()).toBe("done");
    expect(await drained).toBe(0);
  });

  it("stops waiting after its limit and says how many requests were still in flight", async () => {
    const stuck = route(() => new Promise<Response>(() => {}));
    void stuck(new Request("http://127.0.0.1/api/x"));
    void stuck(new Request("http://127.0.0.1/api/x"));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await drain(50)).toBe(2);
  });

  it("with nothing in flight, drains at once", async () => {
    expect(await drain(10_000)).toBe(0);
  });
});

import { describe, expect, it } from "vitest";
import { startBackgroundWork } from "./background-work.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("background work", () => {
  it("runs each task at once and again after each round, never two rounds of one task at a time", async () => {
    let running = 0;
    let most = 0;
    let rounds = 0;
    const work = startBackgroundWork([
      {
        name: "slow",
        everyMs: 5,
        async round() {
          running++;
          most = Math.max(most, running);
          await sleep(20);
          rounds++;
          running--;
        },
      },
    ]);
    await sleep(120);
    await work.stop();
    expect(rounds).toBeGreaterThanOrEqual(3);
    expect(most).toBe(1);
  });

  it("logs a failed round and tries again next time", async () => {
    let calls = 0;
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: string) => errors.push(line);
    try {
      const work = startBackgroundWork([
        {
          name: "flaky",
          everyMs: 5,
          async round() {
            calls++;
            if (calls === 1) throw new Error("store unreachable");
          },
        },
      ]);
      await sleep(40);
      await work.stop();
    } finally {
      console.error = original;
    }
    expect(calls).toBeGreaterThan(1);
    expect(JSON.parse(errors[0]!)).toMatchObject({ task: "flaky", error: "Error: store unreachable" });
  });

  it("stop aborts the rounds in progress, waits for them, and starts no more", async () => {
    let started = 0;
    let aborted = false;
    const work = startBackgroundWork([
      {
        name: "long",
        everyMs: 1,
        round: (signal) =>
          new Promise<void>((resolve) => {
            started++;
            signal.addEventListener("abort", () => {
              aborted = true;
              resolve();
            });
          }),
      },
    ]);
    await sleep(10);
    await work.stop();
    expect(aborted).toBe(true);
    await sleep(20);
    expect(started).toBe(1);
  });
});

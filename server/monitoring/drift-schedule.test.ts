import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openDatabase } from "../store/database.ts";
import { startDriftPublisher } from "./drift.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("the drift publisher's schedule", () => {
  it("runs a round every 5 minutes until stopped, and sends nothing while no kind has a baseline", async () => {
    vi.useFakeTimers();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-schedule-"));
    const db = openDatabase(path.join(dir, "console.db"));
    const send = vi.fn();
    const deps = vi.fn(() => ({ db, cloudWatch: { send } as unknown as CloudWatchClient }));
    const stop = startDriftPublisher(deps);
    await vi.advanceTimersByTimeAsync(299_000);
    expect(deps).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(deps).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(deps).toHaveBeenCalledTimes(3);
    stop();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(deps).toHaveBeenCalledTimes(3);
    expect(send).not.toHaveBeenCalled();
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

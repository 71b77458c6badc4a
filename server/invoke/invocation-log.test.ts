import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "../store/database.ts";
import { recentInvocations, recordInvocation } from "./invocation-log.ts";

let dir: string;
let db: Db;

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

describe("invocation log", () => {
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "invocations-"));
    db = openDatabase(path.join(dir, "console.db"));
  });
  afterEach(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("lists one endpoint's invocations newest first with a 2 KB preview of the request", () => {
    recordInvocation(db, outcome("a", 200), new Date("2026-11-30T10:00:00Z"));
    recordInvocation(db, outcome("b", 200));
    recordInvocation(db, outcome("a", 503), new Date("2026-11-30T10:01:00Z"));
    const list = recentInvocations(db, "a");
    expect(list.map((r) => [r.status, r.at])).toEqual([
      [503, "2026-11-30T10:01:00.000Z"],
      [200, "2026-11-30T10:00:00.000Z"],
    ]);
    expect(list[0]?.requestPreview).toHaveLength(2048);
    expect(list[0]?.requestBytes).toBe(outcome("a").requestBody.length);
  });

  it("keeps the newest 200 per endpoint", () => {
    for (let i = 0; i < 205; i++) recordInvocation(db, { ...outcome("a"), latencyMs: i });
    const kept = recentInvocations(db, "a", 500);
    expect(kept).toHaveLength(200);
    expect(kept[0]?.latencyMs).toBe(204);
    expect(kept.at(-1)?.latencyMs).toBe(5);
  });
});

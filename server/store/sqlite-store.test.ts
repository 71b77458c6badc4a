import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { openDatabase } from "./database.ts";
import { sqliteStore } from "./sqlite-store.ts";
import type { Store } from "./store.ts";

let dir: string;
let db: ReturnType<typeof openDatabase>;
let store: Store;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlite-store-"));
  db = openDatabase(path.join(dir, "console.db"));
  store = sqliteStore(db);
  await store
    .insertInto("gateway_buckets")
    .values([1, 2, 3].map((at) => ({ bucket: `b${at}`, tokens: at, at_ms: at })))
    .execute();
});
afterEach(async () => {
  await store.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const levelsFrom = (at: number) =>
  store.selectFrom("gateway_buckets").select("tokens").where("at_ms", ">=", at).orderBy("at_ms");

it("a query run again is not prepared again, and reads with its new parameters", async () => {
  const prepare = vi.spyOn(db, "prepare");
  expect(await levelsFrom(1).execute()).toEqual([{ tokens: 1 }, { tokens: 2 }, { tokens: 3 }]);
  expect(await levelsFrom(3).execute()).toEqual([{ tokens: 3 }]);
  expect(await levelsFrom(2).execute()).toEqual([{ tokens: 2 }, { tokens: 3 }]);
  expect(prepare).toHaveBeenCalledTimes(1);
});

it("a streamed query leaves its statement to the next run of the same query", async () => {
  const streamed: unknown[] = [];
  for await (const row of levelsFrom(2).stream()) streamed.push(row);
  expect(streamed).toEqual([{ tokens: 2 }, { tokens: 3 }]);
  for await (const row of levelsFrom(1).stream()) {
    expect(row).toEqual({ tokens: 1 });
    break;
  }
  expect(await levelsFrom(1).execute()).toEqual([{ tokens: 1 }, { tokens: 2 }, { tokens: 3 }]);
});

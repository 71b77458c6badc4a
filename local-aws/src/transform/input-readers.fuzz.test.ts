import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseS3Location } from "../async/s3-location.ts";
import { type BatchingSettings, miniBatches } from "./records.ts";
import { parseManifest, TransformJobError } from "./transform-inputs.ts";

/**
 * Every reader of user-supplied data in local batch transform and asynchronous inference, fed a seeded stream of
 * bombs, truncated, corrupt and malformed inputs: each ends in records or a TransformJobError (the job's
 * ClientError), never another error, an uncaught exception or an unbounded read. Counts and time are bounded.
 */
const MIB = 1024 * 1024;
const SEED = 0x25_02;
const RECORD_CASES = 240;
const MANIFEST_CASES = 300;
const LOCATION_CASES = 2_000;
const CASE_DEADLINE_MS = 10_000;

/** mulberry32: a small seeded generator, so a failing case can be replayed from its index. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  const bytes = (length: number) => Buffer.from(Array.from({ length }, () => int(256)));
  return { next, int, pick, bytes };
}

type Random = ReturnType<typeof generator>;

function jsonLines(random: Random, count: number): Buffer {
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({ decision: { id: `d-${i}`, state: "x".repeat(random.int(2000)), options: [] } }),
  );
  return Buffer.from(`${lines.join(random.pick(["\n", "\r\n"]))}${random.pick(["", "\n"])}`);
}

/** One input object: its bytes (written to `file`) and the kind, for the report of a failing case. */
function recordCase(random: Random, file: string): string {
  const kind = random.pick([
    "random-bytes",
    "jsonl",
    "gzip-jsonl",
    "gzip-truncated",
    "gzip-bitflip",
    "gzip-trailing-garbage",
    "gzip-header-only",
    "gzip-bomb-one-line",
    "gzip-bomb-many-lines",
    "long-line",
    "empty",
  ] as const);
  const gz = (body: Buffer) => gzipSync(body, { level: random.pick([1, 6, 9]) });
  let body: Buffer;
  switch (kind) {
    case "random-bytes":
      body = random.bytes(random.int(64 * 1024));
      break;
    case "jsonl":
      body = jsonLines(random, random.int(200));
      break;
    case "gzip-jsonl":
      body = gz(jsonLines(random, random.int(200)));
      break;
    case "gzip-truncated": {
      const whole = gz(jsonLines(random, 1 + random.int(200)));
      body = whole.subarray(0, random.int(whole.length));
      break;
    }
    case "gzip-bitflip": {
      body = Buffer.from(gz(jsonLines(random, 1 + random.int(100))));
      for (let flips = 1 + random.int(8); flips > 0; flips--) {
        const at = random.int(body.length);
        body[at] = (body[at] ?? 0) ^ (1 << random.int(8));
      }
      break;
    }
    case "gzip-trailing-garbage":
      body = Buffer.concat([gz(jsonLines(random, 1 + random.int(50))), random.bytes(1 + random.int(512))]);
      break;
    case "gzip-header-only":
      body = gz(Buffer.alloc(0)).subarray(0, 10);
      break;
    case "gzip-bomb-one-line":
    case "gzip-bomb-many-lines": {
      // Lines of 64 bytes: the ~8 MiB read before the inflate ceiling is ~130,000 records, not millions.
      const line = `${JSON.stringify({ pad: "x".repeat(53) })}\n`;
      const unit = Buffer.alloc(MIB, kind === "gzip-bomb-one-line" ? "a" : line);
      const member = gzipSync(unit, { level: 9 });
      body = Buffer.concat(Array.from({ length: 16 + random.int(1024) }, () => member));
      break;
    }
    case "long-line":
      body = Buffer.alloc((1 + random.int(12)) * MIB, "b");
      break;
    case "empty":
      body = Buffer.alloc(0);
      break;
  }
  fs.writeFileSync(file, body);
  return kind;
}

function recordSettings(random: Random, kind: string): BatchingSettings {
  return {
    splitType: random.pick(["Line", "Line", "None"] as const),
    strategy: random.pick(["SingleRecord", "MultiRecord"] as const),
    maxPayloadBytes: random.pick([0, 1024, MIB, 6 * MIB]),
    // Mostly as the object is; sometimes plain bytes read as gzip or gzip read as plain bytes.
    gzip: random.next() < 0.85 ? kind.startsWith("gzip") : random.next() < 0.5,
  };
}

/** A manifest-like text: valid, malformed, truncated, deeply nested, with wrong types, or random bytes. */
function manifestText(random: Random): string {
  const valid = JSON.stringify([
    { prefix: "s3://decision-console-local/batch/inputs/" },
    ...Array.from({ length: random.int(50) }, (_, i) => `part-${i}.jsonl`),
  ]);
  switch (random.int(9)) {
    case 0:
      return valid;
    case 1:
      return valid.slice(0, random.int(valid.length));
    case 2:
      return `${"[".repeat(1 + random.int(200_000))}${"]".repeat(random.int(3))}`;
    case 3:
      return JSON.stringify([{ prefix: random.pick([1, null, {}, [], true]) }, "a"]);
    case 4:
      return JSON.stringify([{ prefix: "s3://b/" }, random.pick([1, null, {}, [], true])]);
    case 5:
      return random.bytes(random.int(4096)).toString("latin1");
    case 6:
      return JSON.stringify(random.pick([{}, "s3://b/", 42, null, [], [[]]]));
    case 7:
      return JSON.stringify([{ prefix: "s3://b/" }, "x".repeat(random.int(MIB))]);
    default:
      return `${valid}${random.bytes(random.int(16)).toString("latin1")}`;
  }
}

function locationText(random: Random): string {
  const pieces = [
    "s3://",
    "https://",
    "b",
    ".s3.amazonaws.com",
    "s3.us-east-1.amazonaws.com",
    "/",
    "%",
    "%E0%A4%A",
    "%ZZ",
    "%2F",
    "..",
    "\u0000",
    "?",
    "#",
    "k",
  ];
  return Array.from({ length: 1 + random.int(12) }, () => random.pick(pieces)).join("");
}

let dir: string;
let peakRss = 0;
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "input-readers-fuzz-"));
  process.on("uncaughtException", onUncaught);
});

afterAll(() => {
  process.off("uncaughtException", onUncaught);
  fs.rmSync(dir, { recursive: true, force: true });
  console.info(
    JSON.stringify({
      fuzz: "local transform and async input readers",
      seed: SEED,
      peakRssMiB: Math.round(peakRss / MIB),
    }),
  );
});

describe("input readers under fuzzing", { timeout: 300_000 }, () => {
  it(`reads ${RECORD_CASES} transform input objects into records or a ClientError, within bounds`, async () => {
    const random = generator(SEED);
    const base = process.memoryUsage.rss();
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
    }, 10);
    const crashes: string[] = [];
    const outcomes: Record<string, number> = {};
    try {
      for (let index = 0; index < RECORD_CASES; index++) {
        const file = path.join(dir, `case-${index}`);
        const kind = recordCase(random, file);
        const settings = recordSettings(random, kind);
        const started = Date.now();
        let outcome = "records";
        try {
          for await (const _batch of miniBatches(
            file,
            random.int(3),
            settings,
            (line) => `case ${index}, line ${line}`,
          )) {
            if (Date.now() - started > CASE_DEADLINE_MS) throw new Error("case over its deadline");
          }
        } catch (error) {
          outcome = error instanceof TransformJobError ? "ClientError" : "crash";
          if (outcome === "crash")
            crashes.push(`case ${index} (${kind}, ${JSON.stringify(settings)}): ${String(error)}`);
        }
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
        fs.rmSync(file);
      }
    } finally {
      clearInterval(sampler);
    }
    console.info(
      JSON.stringify({
        readers: "transform records",
        cases: RECORD_CASES,
        outcomes,
        rssGrowthMiB: Math.round((peakRss - base) / MIB),
      }),
    );
    expect(crashes).toEqual([]);
    expect(uncaught).toEqual([]);
    expect(outcomes.ClientError).toBeGreaterThan(0);
    expect(outcomes.records).toBeGreaterThan(0);
    // A record is held to 100 MB at most (MaxPayloadInMB 0); nothing near the 1 GiB a bomb holds.
    expect(peakRss - base).toBeLessThan(512 * MIB);
  });

  it(`parses ${MANIFEST_CASES} manifests into keys or a ClientError`, () => {
    const random = generator(SEED + 1);
    const crashes: string[] = [];
    let refused = 0;
    for (let index = 0; index < MANIFEST_CASES; index++) {
      const text = manifestText(random);
      try {
        parseManifest(text, `s3://b/manifest-${index}`);
      } catch (error) {
        if (error instanceof TransformJobError) refused += 1;
        else crashes.push(`manifest ${index}: ${String(error)}`);
      }
    }
    console.info(JSON.stringify({ readers: "transform manifests", cases: MANIFEST_CASES, refused }));
    expect(crashes).toEqual([]);
    expect(refused).toBeGreaterThan(0);
  });

  it(`reads ${LOCATION_CASES} asynchronous InputLocations into a location or none, never a throw`, () => {
    const random = generator(SEED + 2);
    const crashes: string[] = [];
    for (let index = 0; index < LOCATION_CASES; index++) {
      const text = locationText(random);
      try {
        parseS3Location(text);
      } catch (error) {
        crashes.push(`${JSON.stringify(text)}: ${String(error)}`);
      }
    }
    console.info(JSON.stringify({ readers: "async input locations", cases: LOCATION_CASES, crashes: crashes.length }));
    expect(crashes).toEqual([]);
  });
});

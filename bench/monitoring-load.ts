import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { startControlPlane } from "@decision-console/local-aws";
import { benchOut } from "../adapter/bench/bench-files.ts";
import { monitoringQuerySchema } from "../contract/endpoints/monitoring.ts";
import { workspaceStackFixture } from "../infra/local-stack/workspace-fixture.ts";
import { consoleClientsFor } from "../server/aws/local-console-clients.ts";
import { captureFolderOf } from "../server/monitoring/capture-reader.ts";
import { endpointMonitoring } from "../server/monitoring/endpoint-monitoring.ts";
import { openDatabase } from "../server/store/database.ts";
import { sqliteStore } from "../server/store/sqlite-store.ts";

/**
 * npm run bench:monitoring -- [--hours 24] [--rate 10] [--object-seconds 60] [--loads 5]
 *
 * The Monitoring view's load time over a day of traffic: `--rate` decisions a second for `--hours`, written as
 * SageMaker's capture records (one object per `--object-seconds`, three decision kinds of 2 to 4 options, the
 * adapter's full answer in each) into the local control plane's bucket. The console first reads them all (its
 * incremental look, 500 objects a call, timed), then loads the 24-hour view `--loads` times (the target: under
 * 2 s); the honest baseline, side by side, is what a view without the store would do on each load: list and read
 * every capture object of the window and recount. The view's totals must equal that recount. Loopback only;
 * writes bench/out/monitoring-load.json; one JSON line ends stdout.
 */
const { values } = parseArgs({
  options: {
    hours: { type: "string", default: "24" },
    rate: { type: "string", default: "10" },
    "object-seconds": { type: "string", default: "60" },
    loads: { type: "string", default: "5" },
  },
});
const hours = Number(values.hours);
const rate = Number(values.rate);
const objectSeconds = Number(values["object-seconds"]);
const loads = Number(values.loads);
const ENDPOINT = "dc-bench-monitored";
const TARGET_MS = 2000;

const kinds = [
  { question: "Which team should handle this ticket?", options: ["billing", "tech", "sales"] },
  { question: "How urgent is this ticket?", options: ["p1", "p2", "p3", "p4"] },
  { question: "Does this message break the policy?", options: ["yes", "no"] },
];

/** A seeded generator, so every run writes the same traffic. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function captureLine(at: Date, index: number, random: () => number): string {
  const kind = kinds[index % kinds.length] ?? kinds[0];
  if (!kind) throw new Error("no decision kinds");
  const logits = kind.options.map(() => random() * 6 - 3);
  const max = Math.max(...logits);
  const exp = logits.map((logit) => Math.exp(logit - max));
  const sum = exp.reduce((a, b) => a + b, 0);
  const probabilities = exp.map((value) => value / sum);
  const id = `d-${index}`;
  const input = {
    decision: {
      id,
      state: `Customer ${index}: my invoice shows a charge I do not recognise from last week.`,
      question: kind.question,
      options: kind.options.map((option) => ({ id: option, description: `The ${option} answer` })),
    },
  };
  const output = {
    result: {
      id,
      option_ids: kind.options,
      probabilities,
      option_logits: logits,
      answer_token_ids: kind.options.map((_, i) => 330 + i),
      allowed_token_mass: 0.93,
      full_vocab_argmax_id: 330,
      input_tokens: 182,
      prompt_sha256: "0".repeat(64),
      prompt_version: "semif-v1",
      temperature: 1,
      forward_seconds: 0.04,
      model: { name: "bench", sha256: "1".repeat(64) },
    },
    timing: {
      batch_size: 1,
      prefix_tokens: 0,
      prefill_seconds: 0.03,
      suffix_forward_seconds: 0.01,
      max_request_tokens: 182,
      max_tokens_per_decision: 182,
      total_seconds: 0.03 + random() * 0.05,
    },
  };
  return JSON.stringify({
    captureData: {
      endpointInput: {
        observedContentType: "application/json",
        mode: "INPUT",
        data: JSON.stringify(input),
        encoding: "JSON",
      },
      endpointOutput: {
        observedContentType: "application/json",
        mode: "OUTPUT",
        data: JSON.stringify(output),
        encoding: "JSON",
      },
    },
    eventMetadata: { eventId: randomUUID(), inferenceTime: at.toISOString() },
    eventVersion: "0",
  });
}

const two = (n: number) => String(n).padStart(2, "0");

function objectKey(at: Date): string {
  const folder = `${at.getUTCFullYear()}/${two(at.getUTCMonth() + 1)}/${two(at.getUTCDate())}/${two(at.getUTCHours())}`;
  const name = `${two(at.getUTCMinutes())}-${two(at.getUTCSeconds())}-${String(at.getUTCMilliseconds()).padStart(3, "0")}`;
  return `${captureFolderOf(ENDPOINT)}AllTraffic/${folder}/${name}-${randomUUID()}.jsonl`;
}

const median = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-monitoring-"));
  const plane = await startControlPlane({ dataDir, port: 0, fixture: workspaceStackFixture() });
  try {
    const random = generator(33);
    // Ends a minute ago, so the whole day is inside the 24-hour window.
    const end = Date.now() - 60_000;
    const start = end - hours * 3_600_000;
    const total = Math.round(hours * 3600 * rate);
    let written = 0;
    let bytes = 0;
    let objects = 0;
    const writeStarted = performance.now();
    for (let objectStart = start; written < total; objectStart += objectSeconds * 1000) {
      const lines: string[] = [];
      const inObject = Math.min(total - written, Math.round(objectSeconds * rate));
      for (let i = 0; i < inObject; i++) {
        lines.push(captureLine(new Date(objectStart + (i / inObject) * objectSeconds * 1000), written + i, random));
      }
      const body = Buffer.from(`${lines.join("\n")}\n`);
      await plane.objects.putObject(plane.bucket, objectKey(new Date(objectStart)), body, {
        contentType: "application/jsonlines",
      });
      written += inObject;
      bytes += body.length;
      objects++;
    }
    const writeSeconds = (performance.now() - writeStarted) / 1000;

    const clients = consoleClientsFor(plane);
    const store = sqliteStore(openDatabase(path.join(dataDir, "console.db")));
    const deps = {
      s3: clients.s3,
      sageMaker: clients.sageMaker,
      cloudWatch: clients.cloudWatch,
      store,
      artifactBucket: plane.bucket,
    };
    const threshold = 0.5;
    const query = monitoringQuerySchema.parse({ window: "24h", threshold: String(threshold) });

    const readStarted = performance.now();
    let looks = 0;
    for (;;) {
      looks++;
      const view = await endpointMonitoring(deps, ENDPOINT, query);
      if (!view.source.moreToRead) break;
    }
    const firstReadSeconds = (performance.now() - readStarted) / 1000;

    const loadMs: number[] = [];
    let decisions = 0;
    let below = 0;
    let windowFrom = 0;
    let windowTo = 0;
    for (let i = 0; i < loads; i++) {
      const started = performance.now();
      const view = await endpointMonitoring(deps, ENDPOINT, query);
      loadMs.push(performance.now() - started);
      decisions = view.decisions;
      below = view.belowThreshold;
      windowFrom = Date.parse(view.from);
      windowTo = Date.parse(view.to);
    }

    // The baseline: every capture object listed, read and recounted on each load (the window's records: the view's
    // window ends with its last interval, so up to one interval of the oldest traffic is before it).
    const baselineStarted = performance.now();
    let recount = 0;
    let recountBelow = 0;
    let token: string | undefined;
    do {
      const listed = await clients.s3.send(
        new ListObjectsV2Command({ Bucket: plane.bucket, Prefix: captureFolderOf(ENDPOINT), ContinuationToken: token }),
      );
      for (const object of listed.Contents ?? []) {
        const answer = await clients.s3.send(new GetObjectCommand({ Bucket: plane.bucket, Key: object.Key }));
        const text = (await answer.Body?.transformToString("utf8")) ?? "";
        for (const line of text.split("\n")) {
          if (line === "") continue;
          const record = JSON.parse(line);
          const at = Date.parse(record.eventMetadata.inferenceTime);
          if (at < windowFrom || at >= windowTo) continue;
          const output = JSON.parse(record.captureData.endpointOutput.data);
          recount++;
          if (Math.max(...output.result.probabilities) < threshold) recountBelow++;
        }
      }
      token = listed.NextContinuationToken;
    } while (token);
    const baselineMs = performance.now() - baselineStarted;
    await store.destroy();

    if (decisions !== recount || below !== recountBelow) {
      throw new Error(
        `the view counted ${decisions} decisions (${below} below the threshold), the files hold ${recount} (${recountBelow}) in its window`,
      );
    }
    const viewMs = median(loadMs);
    const report = {
      benchmark: "monitoring-load",
      hours,
      decisions_per_second: rate,
      decisions_written: total,
      decisions_in_view: decisions,
      capture_objects: objects,
      capture_megabytes: round(bytes / 1e6),
      write_seconds: round(writeSeconds),
      first_read_seconds: round(firstReadSeconds),
      first_read_looks: looks,
      view_load_ms_median: round(viewMs),
      view_load_ms_max: round(Math.max(...loadMs)),
      baseline_recount_ms: round(baselineMs),
      baseline_over_view: round(baselineMs / viewMs),
      target_ms: TARGET_MS,
      meets_target: viewMs < TARGET_MS,
      cpus: os.cpus().length,
    };
    console.log(
      `\n${total} decisions (${hours} h at ${rate}/s) in ${objects} capture objects, ${report.capture_megabytes} MB; ${decisions} in the 24-hour view`,
    );
    console.log("| | ms |");
    console.log("|---|---:|");
    console.log(`| first read of every object (${looks} looks) | ${round(firstReadSeconds * 1000, 0)} |`);
    console.log(`| 24-hour view load, median of ${loads} | ${report.view_load_ms_median} |`);
    console.log(`| baseline: list, read and recount every object | ${report.baseline_recount_ms} |`);
    console.log(
      `\nbaseline/view ratio: ${report.baseline_over_view}; view load ${report.meets_target ? "meets" : "MISSES"} the ${TARGET_MS} ms target`,
    );
    const out = path.join(benchOut, "monitoring-load.json");
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(JSON.stringify(report));
  } finally {
    await plane.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

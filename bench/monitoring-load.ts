import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { executionRoleArnOf, LOCAL_ACCOUNT_ID, startControlPlane } from "@decision-console/local-aws";
import { createEndpoint, localAdapterImageUri } from "@decision-console/local-aws/testing";
import { benchOut } from "../adapter/bench/bench-files.ts";
import { MAX_LABELS_PER_BATCH } from "../contract/endpoints/ground-truth.ts";
import { monitoringQuerySchema } from "../contract/endpoints/monitoring.ts";
import { realisedQuerySchema } from "../contract/endpoints/realised-quality.ts";
import { workspaceStackFixture } from "../infra/local-stack/workspace-fixture.ts";
import { consoleClientsFor } from "../server/aws/local-console-clients.ts";
import { captureFolderOf } from "../server/monitoring/capture-reader.ts";
import { captureReading } from "../server/monitoring/capture-reading.ts";
import { endpointMonitoring } from "../server/monitoring/endpoint-monitoring.ts";
import { realisedQualityOf } from "../server/monitoring/endpoint-realised-quality.ts";
import { recordLabelBatch } from "../server/monitoring/ground-truth.ts";
import { openDatabase } from "../server/store/database.ts";
import { sqliteStore } from "../server/store/sqlite-store.ts";
import {
  captureObjectKey,
  seededRandom,
  trafficDecision,
  trafficInferenceId,
} from "../tests/support/monitoring/capture-traffic.ts";

/**
 * npm run bench:monitoring -- [--hours 24] [--rate 10] [--object-seconds 60] [--loads 5] [--labels 0]
 *
 * The Monitoring view's load time over a day of traffic: `--rate` decisions a second for `--hours`, written as
 * SageMaker's capture records (one object per `--object-seconds`, three decision kinds of 2 to 4 options, the
 * adapter's full answer and an inference id in each) into the local control plane's bucket, for an endpoint that
 * exists there (its start fails, having no model data: nothing else runs). The console's background capture reader
 * then reads them all (one round, timed) while the view is asked at once (the time until it answers, and how far
 * reading had got). The view (the Monitoring GET and the realised-quality GET the page sends beside it, run
 * together) is loaded `--loads` times; then `--labels` labels (every other decision, from the oldest, 80% agreeing
 * with the decision) go in through the label API's path in batches of 5,000, and the view is loaded again: the
 * medians with and without labels, and their ratio (the target: under 2 s with labels). The honest baseline, side
 * by side, is what a view without the store would do on each load: list and read every capture object of the window
 * and recount. The view's totals must equal that recount, and its labelled count the labels sent. Loopback only;
 * writes bench/out/monitoring-load.json; one JSON line ends stdout.
 */
const { values } = parseArgs({
  options: {
    hours: { type: "string", default: "24" },
    rate: { type: "string", default: "10" },
    "object-seconds": { type: "string", default: "60" },
    loads: { type: "string", default: "5" },
    labels: { type: "string", default: "0" },
  },
});
const hours = Number(values.hours);
const rate = Number(values.rate);
const objectSeconds = Number(values["object-seconds"]);
const loads = Number(values.loads);
const labelCount = Number(values.labels);
const ENDPOINT = "dc-bench-monitored";
const VARIANT = "AllTraffic";
const TARGET_MS = 2000;

const median = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

/** The label of decision `index`: the decision's top option 80% of the time, else the next option. */
function labelOf(options: readonly string[], probabilities: readonly number[], random: () => number): string {
  const top = probabilities.indexOf(Math.max(...probabilities));
  const index = random() < 0.8 ? top : (top + 1) % options.length;
  return options[index] ?? "";
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-monitoring-"));
  const fixture = workspaceStackFixture();
  const plane = await startControlPlane({ dataDir, port: 0, fixture });
  try {
    const random = seededRandom(33);
    const labelRandom = seededRandom(55);
    // Ends a minute ago, so the whole day is inside the 24-hour window.
    const end = Date.now() - 60_000;
    const start = end - hours * 3_600_000;
    const total = Math.round(hours * 3600 * rate);
    const labelled = Math.min(labelCount, Math.ceil(total / 2));
    const labels: { inferenceId: string; label: string; correct: boolean }[] = [];
    let written = 0;
    let bytes = 0;
    let objects = 0;
    const writeStarted = performance.now();
    for (let objectStart = start; written < total; objectStart += objectSeconds * 1000) {
      const lines: string[] = [];
      const inObject = Math.min(total - written, Math.round(objectSeconds * rate));
      for (let i = 0; i < inObject; i++) {
        const index = written + i;
        const at = new Date(objectStart + (i / inObject) * objectSeconds * 1000);
        const decision = trafficDecision(at, index, random);
        lines.push(decision.line);
        if (index % 2 === 0 && labels.length < labelled) {
          const label = labelOf(decision.options, decision.probabilities, labelRandom);
          const top = decision.options[decision.probabilities.indexOf(Math.max(...decision.probabilities))];
          labels.push({ inferenceId: trafficInferenceId(index), label, correct: label === top });
        }
      }
      const body = Buffer.from(`${lines.join("\n")}\n`);
      await plane.objects.putObject(plane.bucket, captureObjectKey(ENDPOINT, VARIANT, new Date(objectStart)), body, {
        contentType: "application/jsonlines",
      });
      written += inObject;
      bytes += body.length;
      objects++;
    }
    const writeSeconds = (performance.now() - writeStarted) / 1000;

    const clients = consoleClientsFor(plane);
    // The endpoint exists (DescribeEndpoint answers, labels are checked against it) but never starts: no model data.
    await createEndpoint(
      clients.sageMaker,
      ENDPOINT,
      { Image: localAdapterImageUri(plane) },
      { executionRoleArn: executionRoleArnOf(fixture.stack, LOCAL_ACCOUNT_ID) },
    );
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
    const realisedQuery = realisedQuerySchema.parse({ window: "7d", threshold: String(threshold) });
    const serving = { name: ENDPOINT, variants: new Set([VARIANT]), temperature: 1, versionArn: null };
    const loadView = async () => {
      const started = performance.now();
      const [view, realised] = await Promise.all([
        endpointMonitoring(deps, ENDPOINT, query),
        realisedQualityOf(deps, serving, realisedQuery),
      ]);
      return { ms: performance.now() - started, view, realised };
    };
    const loadTimes = async () => {
      const times: number[] = [];
      for (let i = 0; i < loads; i++) times.push((await loadView()).ms);
      return times;
    };

    // The reader's round reads everything; the view is asked as it starts.
    const reader = captureReading(() => ({ ...deps, resourceNamePrefix: "dc-" }), { ttlMs: 60_000 }, "bench");
    const readStarted = performance.now();
    const reading = reader.round(new AbortController().signal).then(() => performance.now() - readStarted);
    const firstView = await loadView();
    const firstAnswerMs = performance.now() - readStarted;
    const firstReadSeconds = (await reading) / 1000;

    const withoutLabels = await loadTimes();
    const labelStarted = performance.now();
    for (let from = 0; from < labels.length; from += MAX_LABELS_PER_BATCH) {
      const labelledAt = new Date().toISOString();
      const batch = labels
        .slice(from, from + MAX_LABELS_PER_BATCH)
        .map(({ inferenceId, label }) => ({ inferenceId, label, labelledAt }));
      await recordLabelBatch(deps, ENDPOINT, { labels: batch }, "bench");
    }
    const labelSeconds = (performance.now() - labelStarted) / 1000;
    const withLabels = await loadTimes();
    const last = await loadView();
    const decisions = last.view.decisions;
    const below = last.view.belowThreshold;
    const windowFrom = Date.parse(last.view.from);
    const windowTo = Date.parse(last.view.to);
    const realisedLabelled = last.realised.kinds.reduce((sum, kind) => sum + kind.labelled, 0);
    const realisedCorrect = last.realised.kinds.reduce((sum, kind) => sum + kind.accuracy.correct, 0);

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

    const labelsSent = labels.length;
    const correctSent = labels.filter((label) => label.correct).length;
    if (decisions !== recount || below !== recountBelow) {
      throw new Error(
        `the view counted ${decisions} decisions (${below} below the threshold), the files hold ${recount} (${recountBelow}) in its window`,
      );
    }
    if (realisedLabelled !== labelsSent || realisedCorrect !== correctSent) {
      throw new Error(
        `realised quality counted ${realisedLabelled} labels (${realisedCorrect} right), the bench sent ${labelsSent} (${correctSent})`,
      );
    }
    const plainMs = median(withoutLabels);
    const labelledMs = median(withLabels);
    const report = {
      benchmark: "monitoring-load",
      hours,
      decisions_per_second: rate,
      decisions_written: total,
      decisions_in_view: decisions,
      labels: labelsSent,
      capture_objects: objects,
      capture_megabytes: round(bytes / 1e6),
      write_seconds: round(writeSeconds),
      first_read_seconds: round(firstReadSeconds),
      first_view_answer_ms: round(firstAnswerMs),
      first_view_objects_read: firstView.view.source.objectsRead,
      first_view_unread_objects: firstView.view.source.reading.unreadObjects,
      label_seconds: round(labelSeconds),
      view_load_ms_median_without_labels: round(plainMs),
      view_load_ms_median_with_labels: round(labelledMs),
      view_load_ms_max_with_labels: round(Math.max(...withLabels)),
      with_over_without_labels: round(labelledMs / plainMs, 2),
      baseline_recount_ms: round(baselineMs),
      baseline_over_view: round(baselineMs / labelledMs),
      target_ms: TARGET_MS,
      meets_target: labelledMs < TARGET_MS && firstAnswerMs < TARGET_MS,
      cpus: os.cpus().length,
      load_average: os.loadavg().map((load) => round(load, 2)),
    };
    console.log(
      `\n${total} decisions (${hours} h at ${rate}/s) in ${objects} capture objects, ${report.capture_megabytes} MB; ${decisions} in the 24-hour view; ${labelsSent} labels`,
    );
    console.log("| | ms |");
    console.log("|---|---:|");
    console.log(
      `| first read of every object (the background reader's round) | ${round(firstReadSeconds * 1000, 0)} |`,
    );
    console.log(
      `| first view's answer, asked as reading starts (${report.first_view_objects_read} objects read then) | ${report.first_view_answer_ms} |`,
    );
    console.log(`| ${labelsSent} labels through the label API's path | ${round(labelSeconds * 1000, 0)} |`);
    console.log(`| view load without labels, median of ${loads} | ${report.view_load_ms_median_without_labels} |`);
    console.log(`| view load with labels, median of ${loads} | ${report.view_load_ms_median_with_labels} |`);
    console.log(`| baseline: list, read and recount every object | ${report.baseline_recount_ms} |`);
    console.log(
      `\nwith/without labels: ${report.with_over_without_labels}; baseline/view: ${report.baseline_over_view}; view ${report.meets_target ? "meets" : "MISSES"} the ${TARGET_MS} ms target; load average ${report.load_average.join(" ")} on ${report.cpus} CPUs`,
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

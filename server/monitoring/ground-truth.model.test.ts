import fs from "node:fs";
import { DescribeAlarmsCommand } from "@aws-sdk/client-cloudwatch";
import type { ControlPlane } from "@decision-console/local-aws";
import { MetricClock } from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { realisedQuerySchema } from "../../contract/endpoints/realised-quality.ts";
import { accuracyInterval } from "../../contract/evaluate/threshold.ts";
import {
  type CapturePlane,
  deployCapturedEndpoint,
  planeWithTinyModel,
} from "../../tests/support/endpoints/captured-endpoint.ts";
import { openTestStore, type TestStore } from "../../tests/support/store/test-stores.ts";
import { consoleClientsFor } from "../aws/local-console-clients.ts";
import { createDataset } from "../evaluate/datasets/dataset-store.ts";
import { createRun, recordResult } from "../evaluate/runs/run-store.ts";
import { invokeEndpointBytes } from "../invoke/invoke.ts";
import { readEndpointCaptures } from "./capture-reading.ts";
import { decisionKind } from "./capture-record.ts";
import { setBaselineFromEvaluationRun } from "./drift-store.ts";
import { endpointRealisedQuality } from "./endpoint-realised-quality.ts";
import { storeThreshold } from "./endpoint-threshold.ts";
import { importGroundTruth, recordLabelBatch } from "./ground-truth.ts";
import { publishRealised, REALISED_PUBLISH_EVERY_SECONDS, realisedAlarmName } from "./realised-publisher.ts";

/**
 * Ground truth on a captured endpoint in local mode, with the console's own credentials: 2,000 decisions sent with
 * inference ids, labels for 70% of them returned late through the label API and as SageMaker Model Monitor's
 * ground-truth files (some twice, some for unknown ids, some naming options the decisions did not have), and the
 * realised figures checked against a recount from the capture files and the labels as sent; the figures published to
 * local CloudWatch, whose realised-accuracy alarm stays OK on the unshifted labelling and goes to ALARM on a shifted one.
 */
let setup: CapturePlane;
let plane: ControlPlane;
let test: TestStore;
const ENDPOINT = "dc-truth";
const DECISIONS = 2000;
const QUESTION = "How urgent is this ticket?";
const OPTIONS = ["p1", "p2", "p3"];
const KIND = decisionKind(QUESTION, OPTIONS);
/** Local CloudWatch's clock: real time until a publish, then held just past the end of the alarm period it fell in. */
const metricClock = new MetricClock();

beforeAll(async () => {
  setup = await planeWithTinyModel("truth", { metricClock: metricClock.now });
  ({ plane } = setup);
  await deployCapturedEndpoint(setup, ENDPOINT);
  test = await openTestStore("sqlite");
}, 120_000);

afterAll(async () => {
  await test?.close();
  await setup?.close();
});

const ticket = (i: number) => ({
  decision: {
    id: `ticket-${i}`,
    state: `Ticket ${i}: ${["the export page crashes", "a typo on the pricing page", "invoices arrive twice", "login is slow"][i % 4]} (${i % 37} reports).`,
    question: QUESTION,
    options: OPTIONS.map((id) => ({ id, description: { p1: "Now", p2: "Today", p3: "This week" }[id] ?? id })),
  },
});

/** A deterministic spread of 0..99 per decision, so the labelling is the same on every run. */
const spread = (i: number) => (i * 7919 + 13) % 100;

interface FileDecision {
  chosen: string;
  top: number;
  probabilities: number[];
}

/** Every captured decision straight from the capture files, by inference id. */
function fromFiles(): Map<string, FileDecision> {
  const found = new Map<string, FileDecision>();
  for (const object of plane.objects.list(plane.bucket, `data-capture/${ENDPOINT}/`, "", 10_000)) {
    const text = fs.readFileSync(plane.objects.getObject(plane.bucket, object.key).file, "utf8");
    for (const recordText of text.split("\n")) {
      if (recordText.trim() === "") continue;
      const record = JSON.parse(recordText);
      const output = JSON.parse(record.captureData.endpointOutput.data);
      const probabilities: number[] = output.result.probabilities;
      const top = Math.max(...probabilities);
      const chosen = output.result.option_ids[probabilities.indexOf(top)];
      found.set(record.eventMetadata.inferenceId, { chosen, top, probabilities });
    }
  }
  return found;
}

/** The label a team learns: the chosen option for `agree` in 100 decisions, the next option otherwise. */
const labelOf = (decision: FileDecision, i: number, agree: number) =>
  spread(i) < agree ? decision.chosen : (OPTIONS[(OPTIONS.indexOf(decision.chosen) + 1) % OPTIONS.length] ?? "p1");

const groundTruthRecord = (inferenceId: string, label: string) =>
  JSON.stringify({
    groundTruthData: { data: label, encoding: "CSV" },
    eventMetadata: { eventId: inferenceId },
    eventVersion: "0",
  });

describe("ground truth of a captured endpoint", { timeout: 600_000 }, () => {
  it("joins late labels from both sources by inference id, equal to a recount, and alarms on a shifted labelling", async () => {
    const clients = consoleClientsFor(plane);
    for (let i = 0; i < DECISIONS; i++) {
      await invokeEndpointBytes(clients.runtime, ENDPOINT, ticket(i), undefined, undefined, `inf-${i}`);
    }
    await plane.capture.flush();
    const files = fromFiles();
    expect(files.size).toBe(DECISIONS);

    const { store } = test;
    const deps = { s3: clients.s3, sageMaker: clients.sageMaker, store, artifactBucket: plane.bucket };
    const labelled = Array.from({ length: DECISIONS }, (_, i) => i).filter((i) => i % 10 < 7);
    const truthOf = (i: number, agree: number) => labelOf(files.get(`inf-${i}`) as FileDecision, i, agree);
    const viaApi = labelled.filter((i) => i % 2 === 0);
    const viaFiles = labelled.filter((i) => i % 2 === 1);

    // The label API: a batch with an unknown id and an option the decision did not have stores none of its rows.
    const learnt = new Date().toISOString();
    const row = (i: number, agree = 70) => ({ inferenceId: `inf-${i}`, label: truthOf(i, agree), labelledAt: learnt });
    const bad = [row(0), { ...row(2), inferenceId: "inf-nowhere" }, { ...row(4), label: "p9" }];
    await expect(recordLabelBatch(deps, ENDPOINT, { labels: bad }, "ann")).rejects.toMatchObject({
      status: 400,
      details: { refusedCount: 2 },
    });
    for (let start = 0; start < viaApi.length; start += 250) {
      const batch = viaApi.slice(start, start + 250).map((i) => row(i));
      expect(await recordLabelBatch(deps, ENDPOINT, { labels: batch }, "ann")).toEqual({
        stored: batch.length,
        unchanged: 0,
      });
    }
    // Some twice: the same rows again change nothing.
    const again = viaApi.slice(0, 100).map((i) => row(i));
    expect(await recordLabelBatch(deps, ENDPOINT, { labels: again }, "ann")).toEqual({ stored: 0, unchanged: 100 });

    // Model Monitor's ground-truth files, written by the team in the capture's hour layout: the other half, with
    // 50 labels the API sent already (the same label again), 40 unknown ids and 30 options no decision had.
    const folder = `ground-truth/${ENDPOINT}/tickets/2026/12/07/10/`;
    const records = [
      ...viaFiles.map((i) => groundTruthRecord(`inf-${i}`, truthOf(i, 70))),
      ...viaApi.slice(0, 50).map((i) => groundTruthRecord(`inf-${i}`, truthOf(i, 70))),
      ...Array.from({ length: 40 }, (_, i) => groundTruthRecord(`unknown-${i}`, "p1")),
      ...viaFiles.slice(0, 30).map((i) => groundTruthRecord(`inf-${i}`, "p9")),
    ];
    const half = Math.ceil(records.length / 2);
    await plane.objects.putObject(plane.bucket, `${folder}a.jsonl`, Buffer.from(records.slice(0, half).join("\n")));
    await plane.objects.putObject(plane.bucket, `${folder}b.jsonl`, Buffer.from(records.slice(half).join("\n")));
    const imported = await importGroundTruth(deps, ENDPOINT, { prefix: `ground-truth/${ENDPOINT}/tickets/` });
    expect(imported).toMatchObject({ objects: 2, records: records.length, refusedCount: 70 });
    expect(imported.stored + imported.unchanged).toBe(viaFiles.length + 50);

    // An evaluation of this kind: 231 of the endpoint's own answers, scored right as the unshifted labelling says.
    const evaluated = Array.from({ length: 231 }, (_, n) => n * 8 + 1);
    const dataset = await createDataset(store, {
      name: "tickets",
      source: "upload",
      format: "jsonl",
      items: evaluated.map((i) => ({
        decision: ticket(i).decision,
        answer: truthOf(i, 70),
        category: null,
        tier: null,
      })),
    });
    const run = await createRun(store, {
      datasetId: dataset.id,
      endpoints: [ENDPOINT],
      concurrency: 1,
      targetAccuracy: 0.9,
    });
    for (const [position, i] of evaluated.entries()) {
      const decision = files.get(`inf-${i}`) as FileDecision;
      await recordResult(store, {
        runId: run.id,
        slot: 0,
        position,
        itemId: `ticket-${i}`,
        optionIds: OPTIONS,
        probabilities: decision.probabilities,
        logits: null,
        chosen: decision.chosen,
        latencyMs: 10,
        adapterMs: null,
        attempts: 1,
        errorKind: null,
        errorMessage: null,
        finishedAt: learnt,
      });
    }
    await setBaselineFromEvaluationRun(store, ENDPOINT, KIND, run.id, "ops");

    // The threshold: the hundredth at or below the median top probability, so about half the decisions reach it.
    const tops = [...files.values()].map((decision) => decision.top).sort((a, b) => a - b);
    const threshold = Math.max(0.01, Math.floor((tops[DECISIONS / 2] ?? 0) * 100) / 100);
    const query = realisedQuerySchema.parse({ window: "24h", threshold: String(threshold) });
    const recount = (agree: number) => {
      const all = labelled.map((i) => ({ decision: files.get(`inf-${i}`) as FileDecision, truth: truthOf(i, agree) }));
      const covered = all.filter(({ decision }) => decision.top >= threshold);
      const right = (some: typeof all) => some.filter(({ decision, truth }) => decision.chosen === truth).length;
      return {
        labelled: all.length,
        correct: right(all),
        coveredLabelled: covered.length,
        coveredCorrect: right(covered),
      };
    };

    await readEndpointCaptures(deps, ENDPOINT);
    const realised = await endpointRealisedQuality(deps, ENDPOINT, query);
    const kind = realised.kinds.find((entry) => entry.kind === KIND);
    const expected = recount(70);
    expect(kind).toMatchObject({
      decisions: DECISIONS,
      labelled: expected.labelled,
      labelledShare: expected.labelled / DECISIONS,
      accuracy: { labelled: expected.labelled, correct: expected.correct },
      atThreshold: { labelled: expected.coveredLabelled, correct: expected.coveredCorrect },
      coverage: expected.coveredLabelled / expected.labelled,
    });
    expect(kind?.accuracy.lower).toBe(accuracyInterval(expected.correct, expected.labelled).lower);
    expect(kind?.intervals.reduce((sum, interval) => sum + interval.labelled, 0)).toBe(expected.labelled);
    expect(kind?.evaluation).toMatchObject({ runId: run.id, basis: { why: "drift baseline", by: "ops" } });
    expect(expected.coveredLabelled).toBeGreaterThanOrEqual(realised.minLabelsForAlarm);
    expect(kind?.alarm.state).toBe("OK");

    // The same figures published to local CloudWatch at the stored threshold, as the background publisher does; once
    // the alarm's period is over, local CloudWatch evaluates the shortfall published in it.
    await storeThreshold(store, ENDPOINT, threshold, "ops");
    const publisher = { ...deps, cloudWatch: clients.cloudWatch };
    const alarmsPut = new Set<string>();
    const alarmState = async () => {
      const described = await clients.cloudWatch.send(
        new DescribeAlarmsCommand({ AlarmNames: [realisedAlarmName(ENDPOINT, KIND)] }),
      );
      return described.MetricAlarms?.[0]?.StateValue;
    };
    const firstPublish = new Date();
    await publishRealised(publisher, firstPublish, alarmsPut);
    expect(await alarmState()).toBe("INSUFFICIENT_DATA");
    metricClock.holdPastPeriodOf(firstPublish.getTime(), REALISED_PUBLISH_EVERY_SECONDS);
    await expect.poll(alarmState, { timeout: 30_000, interval: 500 }).toBe("OK");

    // A shifted labelling, learnt later: the team's labels now agree with the endpoint far less often.
    const shifted = new Date(Date.now() + 60_000).toISOString();
    for (let start = 0; start < labelled.length; start += 500) {
      const batch = labelled.slice(start, start + 500).map((i) => ({ ...row(i, 40), labelledAt: shifted }));
      await recordLabelBatch(deps, ENDPOINT, { labels: batch }, "ann");
    }
    const after = (await endpointRealisedQuality(deps, ENDPOINT, query)).kinds.find((entry) => entry.kind === KIND);
    const shiftedCount = recount(40);
    expect(after?.atThreshold).toMatchObject({
      labelled: shiftedCount.coveredLabelled,
      correct: shiftedCount.coveredCorrect,
    });
    expect(after?.alarm.state).toBe("ALARM");
    const secondPublish = new Date();
    await publishRealised(publisher, secondPublish, alarmsPut);
    metricClock.holdPastPeriodOf(secondPublish.getTime(), REALISED_PUBLISH_EVERY_SECONDS);
    await expect.poll(alarmState, { timeout: 30_000, interval: 500 }).toBe("ALARM");
  });
});

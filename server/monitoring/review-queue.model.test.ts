import fs from "node:fs";
import type { ControlPlane } from "@decision-console/local-aws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitoringQuerySchema } from "../../contract/endpoints/monitoring.ts";
import { reviewQuerySchema } from "../../contract/endpoints/review.ts";
import {
  type CapturePlane,
  deployCapturedEndpoint,
  planeWithTinyModel,
} from "../../tests/support/endpoints/captured-endpoint.ts";
import { openTestStore } from "../../tests/support/store/test-stores.ts";
import { consoleClientsFor } from "../aws/local-console-clients.ts";
import { datasetItems } from "../evaluate/datasets/dataset-store.ts";
import { invokeEndpoint } from "../invoke/invoke.ts";
import { endpointMonitoring } from "./endpoint-monitoring.ts";
import { exportLabelsToDataset, labelDecision, reviewQueue } from "./review-queue.ts";

/**
 * The review queue on a captured endpoint in local mode, with the console's own credentials: decisions sent, read
 * back lowest confidence first (checked against a sort of the capture files made here), labelled, exported as a
 * dataset, and the Monitoring view's live accuracy against a recount of the labels.
 */
let setup: CapturePlane;
let plane: ControlPlane;
const ENDPOINT = "dc-reviewed";
const OPTIONS = ["p1", "p2", "p3"];

beforeAll(async () => {
  setup = await planeWithTinyModel("review");
  ({ plane } = setup);
  await deployCapturedEndpoint(setup, ENDPOINT);
}, 120_000);

afterAll(() => setup?.close());

const ticket = (i: number) => ({
  decision: {
    id: `ticket-${i}`,
    state: `Ticket ${i}: ${["the export page crashes for every user", "a typo on the pricing page", "invoices arrive twice", "login is slow on Mondays"][i % 4]} (${i} reports).`,
    question: "How urgent is this ticket?",
    options: [
      { id: "p1", description: "Now" },
      { id: "p2", description: "Today" },
      { id: "p3", description: "This week" },
    ],
  },
});

/** Every captured decision straight from the files: its key, state, top probability and chosen option. */
function fromFiles() {
  const found: { objectKey: string; line: number; state: string; top: number; chosen: string }[] = [];
  for (const object of plane.objects.list(plane.bucket, `data-capture/${ENDPOINT}/`, "", 1000)) {
    const text = fs.readFileSync(plane.objects.getObject(plane.bucket, object.key).file, "utf8");
    for (const [line, recordText] of text.split("\n").entries()) {
      if (recordText.trim() === "") continue;
      const record = JSON.parse(recordText);
      const input = JSON.parse(record.captureData.endpointInput.data);
      const output = JSON.parse(record.captureData.endpointOutput.data);
      const probabilities: number[] = output.result.probabilities;
      const top = Math.max(...probabilities);
      const chosen = output.result.option_ids[probabilities.indexOf(top)];
      found.push({ objectKey: object.key, line, state: input.decision.state, top, chosen });
    }
  }
  return found;
}

describe("the review queue of a captured endpoint", { timeout: 180_000 }, () => {
  it("offers decisions lowest confidence first, takes labels, exports them and scores the endpoint on them", async () => {
    const clients = consoleClientsFor(plane);
    for (let i = 0; i < 10; i++) await invokeEndpoint(clients.runtime, ENDPOINT, ticket(i));
    await plane.capture.flush();

    const { store, close } = await openTestStore("sqlite");
    const deps = {
      s3: clients.s3,
      sageMaker: clients.sageMaker,
      cloudWatch: clients.cloudWatch,
      store,
      artifactBucket: plane.bucket,
    };
    const queue = await reviewQueue(deps, ENDPOINT, reviewQuerySchema.parse({ limit: "50" }));

    // The order is that of an independent sort of the files' decisions by top probability (ties by time of record).
    const files = fromFiles();
    expect(queue.unlabelled).toBe(10);
    expect(queue.items).toHaveLength(10);
    const tops = queue.items.map((item) => item.topProbability);
    expect(new Set(tops).size).toBeGreaterThan(1);
    expect(tops).toEqual([...files.map((decision) => decision.top)].sort((a, b) => a - b));
    for (const item of queue.items) {
      const file = files.find((decision) => decision.objectKey === item.objectKey && decision.line === item.line);
      expect(file?.state).toBe(item.state);
      expect(file?.chosen).toBe(item.chosen);
      expect(item.question).toBe("How urgent is this ticket?");
      expect(item.options.map((option) => option.id)).toEqual(OPTIONS);
      expect(item.options[0]?.description).toBe("Now");
      expect(item.probabilities).toHaveLength(3);
    }

    // Bad labels are 4xx; a label is one of the options, or a skip.
    const first = queue.items[0];
    if (!first) throw new Error("no decision in the queue");
    const key = { objectKey: first.objectKey, line: first.line, item: first.item };
    await expect(labelDecision(deps, ENDPOINT, { ...key, label: "p9" }, "ann")).rejects.toMatchObject({ status: 400 });
    await expect(
      labelDecision(deps, ENDPOINT, { ...key, objectKey: "data-capture/none.jsonl", label: "p1" }, "ann"),
    ).rejects.toMatchObject({ status: 404 });

    // Six labels (the right answer says the chosen one for some, not for others) and one skip.
    const given = queue.items.slice(0, 6).map((item, index) => ({
      item,
      label: index % 2 === 0 ? item.chosen : (OPTIONS.find((option) => option !== item.chosen) ?? "p1"),
    }));
    for (const { item, label } of given) {
      const stored = await labelDecision(
        deps,
        ENDPOINT,
        { objectKey: item.objectKey, line: item.line, item: item.item, label },
        "ann",
      );
      expect(stored).toMatchObject({ label, labelledBy: "ann", chosen: item.chosen });
    }
    const skipped = queue.items[6];
    if (!skipped) throw new Error("no seventh decision");
    await labelDecision(
      deps,
      ENDPOINT,
      { objectKey: skipped.objectKey, line: skipped.line, item: 0, skip: true },
      "bo",
    );

    const after = await reviewQueue(deps, ENDPOINT, reviewQuerySchema.parse({ limit: "50" }));
    expect(after.unlabelled).toBe(3);
    expect(after.items.map((item) => item.topProbability)).toEqual(tops.slice(7));
    expect(after.kinds).toEqual([
      expect.objectContaining({ question: "How urgent is this ticket?", labelled: 6, skipped: 1 }),
    ]);
    expect(after.recent[0]).toMatchObject({ labelledBy: "bo", label: null });

    // The export: the labelled decisions (not the skipped one) as sent, each with its label as the answer.
    const kind = first.kind;
    const exported = await exportLabelsToDataset(store, ENDPOINT, kind, "reviewed tickets");
    expect(exported.itemCount).toBe(6);
    const rows = await datasetItems(store, exported.datasetId);
    const byState = new Map(given.map(({ item, label }) => [item.state, label]));
    expect(new Map(rows.map((row) => [row.decision.state, row.answer]))).toEqual(byState);
    for (const row of rows) {
      expect(row.decision.question).toBe("How urgent is this ticket?");
      expect(row.decision.options.map((option) => option.id)).toEqual(OPTIONS);
    }

    // The Monitoring view's live accuracy against a recount of the labels.
    const view = await endpointMonitoring(deps, ENDPOINT, monitoringQuerySchema.parse({ window: "1h" }));
    const right = given.filter(({ item, label }) => label === item.chosen).length;
    const figures = view.kinds.find((entry) => entry.kind === kind)?.labelled;
    expect(figures?.labelled).toBe(6);
    expect(figures?.accuracy).toBeCloseTo(right / 6, 12);
    expect(figures?.ece).toBeGreaterThanOrEqual(0);
    await close();
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AwsClients } from "../aws/clients.ts";
import { uploadDataset } from "../evaluate/datasets/dataset-commands.ts";
import { datasetItems, type StoredItem } from "../evaluate/datasets/dataset-store.ts";
import { servingEndpointChecker } from "../evaluate/endpoint-configuration.ts";
import type { DecisionOutcome } from "../evaluate/metrics/outcome.ts";
import { outcomesOf } from "../evaluate/runs/outcomes.ts";
import { createRun } from "../evaluate/runs/run-store.ts";
import { endpointEvaluations, runData } from "../evaluate/runs/run-view.ts";
import { executeRun } from "../evaluate/runs/runner.ts";
import { sageMakerInvoker } from "../evaluate/runs/sagemaker-invoker.ts";
import { openDatabase } from "../store/database.ts";
import { sqliteStore } from "../store/sqlite-store.ts";
import { GateFailure } from "./gate-failure.ts";

export interface GateEvaluationInput {
  datasetFile: string;
  /** The endpoints to score, in order: the candidate first, then a baseline endpoint when there is one. */
  endpoints: readonly string[];
  concurrency: number;
  targetAccuracy: number;
  artifactBucket: string | null;
  /** Called with the stored items before any endpoint is asked (a registry baseline is read and checked there). */
  beforeScoring?: (items: StoredItem[]) => Promise<void>;
}

export interface EndpointOutcomes {
  endpointName: string;
  outcomes: DecisionOutcome[];
  /** The smallest confidence at which this endpoint met the target accuracy, if any did. */
  threshold: number | null;
}

export interface GateEvaluation {
  items: StoredItem[];
  sides: EndpointOutcomes[];
}

/** Item failures that mean the endpoint could not be reached at all, rather than that it refused an item. */
const UNREACHABLE_KINDS = new Set(["unreachable", "timeout", "server_error", "busy"]);

/**
 * Scores a dataset file on the endpoints with the console's own evaluation code: the file is validated as an upload
 * is, the endpoints are checked InService as the evaluate page checks them, and one evaluation run (one per endpoint
 * slot, on the same items) is worked by the console's runner and InvokeEndpoint invoker, in a store of its own that
 * is deleted afterwards.
 */
export async function evaluateForGate(clients: AwsClients, input: GateEvaluationInput): Promise<GateEvaluation> {
  let text: string;
  try {
    text = fs.readFileSync(input.datasetFile, "utf8");
  } catch (error) {
    throw new GateFailure("input", `--dataset: cannot read ${input.datasetFile} (${(error as Error).message}).`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "decision-gate-"));
  const store = sqliteStore(openDatabase(path.join(dir, "gate.db")));
  try {
    const dataset = await uploadDataset(store, {
      name: path.basename(input.datasetFile),
      text,
      fileName: input.datasetFile,
    });
    await input.beforeScoring?.(await datasetItems(store, dataset.id));
    const check = servingEndpointChecker(clients);
    const configurations: (string | null)[] = [];
    for (const name of input.endpoints) configurations.push((await check(name)).configuration);
    const run = await createRun(store, {
      datasetId: dataset.id,
      endpoints: input.endpoints,
      configurations,
      concurrency: input.concurrency,
      targetAccuracy: input.targetAccuracy,
    });
    const invoke = sageMakerInvoker(clients, { artifactBucket: input.artifactBucket, store: () => store });
    const status = await executeRun({ store, invoke }, run.id);
    const data = await runData(store, run.id);
    if (status !== "completed" || !data) {
      throw new GateFailure(
        "infrastructure",
        `The evaluation run ended ${status}: ${data?.run.failure ?? "no reason"}.`,
      );
    }
    const evaluations = endpointEvaluations(data);
    const sides = input.endpoints.map((endpointName, slot) => ({
      endpointName,
      outcomes: outcomesOf(data.items, data.results, slot),
      threshold: evaluations[slot]?.metrics.threshold.point?.threshold ?? null,
    }));
    for (const side of sides) {
      const failures = side.outcomes.filter((outcome) => outcome.errorKind && UNREACHABLE_KINDS.has(outcome.errorKind));
      if (side.outcomes.length > 0 && failures.length === side.outcomes.length) {
        const first = failures[0];
        throw new GateFailure(
          "infrastructure",
          `${side.endpointName} answered no item (${first?.errorKind}: ${first?.errorMessage ?? "no message"}).`,
        );
      }
    }
    return { items: data.items, sides };
  } finally {
    await store.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

import { GetObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import type { SageMakerClient } from "@aws-sdk/client-sagemaker";
import { z } from "zod";
import { awsCall } from "../aws/errors.ts";
import { parseS3Uri } from "../aws/s3-uri.ts";
import type { StoredItem } from "../evaluate/datasets/dataset-store.ts";
import type { DecisionOutcome } from "../evaluate/metrics/outcome.ts";
import { datasetSha256 } from "../models/evaluation-evidence.ts";
import { describeVersionByArn } from "../models/model-versions.ts";
import type { EndpointOutcomes } from "./gate-evaluation.ts";
import { GateFailure } from "./gate-failure.ts";

/** What the gate reads of an evaluation report (`evaluationEvidence` writes it): the threshold and every item. */
const reportSchema = z.object({
  metrics: z.object({ threshold: z.object({ point: z.object({ threshold: z.number() }).nullable() }) }),
  outcomes: z.array(
    z.object({
      itemId: z.string(),
      probabilities: z.array(z.number()).nullable(),
      logits: z.array(z.number()).nullable().optional(),
      latencyMs: z.number().nullable().optional(),
      errorKind: z.string().nullable().optional(),
      errorMessage: z.string().nullable().optional(),
    }),
  ),
});

/**
 * The baseline an Approved model version was approved on: its attached evaluation's report, item by item. The
 * version must be Approved, its evaluation must have been run on exactly the gate's dataset (the same sha256 over
 * the items), and the report must hold every item's answer (reports attached before they did must be attached again).
 */
export async function registryBaseline(
  clients: { sageMaker: SageMakerClient; s3: S3Client },
  versionArn: string,
  items: readonly StoredItem[],
): Promise<EndpointOutcomes> {
  const version = await describeVersionByArn(clients.sageMaker, versionArn);
  const name = `${version.group} version ${version.version}`;
  if (version.status !== "Approved") {
    throw new GateFailure("input", `--baseline-version: ${name} is ${version.status}; the baseline must be Approved.`);
  }
  const evaluation = version.evaluation;
  if (!evaluation) throw new GateFailure("input", `--baseline-version: ${name} has no evaluation attached.`);
  const sha256 = datasetSha256(items);
  if (evaluation.datasetSha256 !== sha256) {
    throw new GateFailure(
      "input",
      `--dataset: ${name} was evaluated on "${evaluation.datasetName}" (${evaluation.items} items, sha256 ${evaluation.datasetSha256}); this dataset's items have sha256 ${sha256}. Gate on the same items.`,
    );
  }
  const { bucket, prefix } = parseS3Uri(evaluation.reportUrl);
  const object = await awsCall(evaluation.reportUrl, () =>
    clients.s3.send(new GetObjectCommand({ Bucket: bucket, Key: prefix })),
  );
  const parsed = reportSchema.safeParse(JSON.parse((await object.Body?.transformToString()) ?? "null"));
  if (!parsed.success) {
    throw new GateFailure(
      "input",
      `--baseline-version: the report ${evaluation.reportUrl} holds no per-item answers (it was attached before reports kept them); attach the evaluation to ${name} again.`,
    );
  }
  const byItem = new Map(parsed.data.outcomes.map((outcome) => [outcome.itemId, outcome]));
  const outcomes: DecisionOutcome[] = items.map((item) => {
    const reported = byItem.get(item.decision.id);
    if (!reported) {
      throw new GateFailure(
        "input",
        `--baseline-version: the report ${evaluation.reportUrl} has no item ${item.decision.id}.`,
      );
    }
    return {
      ...reported,
      optionIds: item.decision.options.map((option) => option.id),
      answer: item.answer,
      category: item.category,
      tier: item.tier,
    };
  });
  return { endpointName: name, outcomes, threshold: parsed.data.metrics.threshold.point?.threshold ?? null };
}

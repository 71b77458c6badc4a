import type { S3Client } from "@aws-sdk/client-s3";
import type { SageMakerClient } from "@aws-sdk/client-sagemaker";
import { describe, expect, it } from "vitest";
import type { VersionEvaluation } from "../../contract/models/model-registry.ts";
import type { StoredItem } from "../evaluate/datasets/dataset-store.ts";
import { datasetSha256 } from "../models/evaluation-evidence.ts";
import { evaluationMetadata } from "../models/version-metadata.ts";
import { GateFailure } from "./gate-failure.ts";
import { registryBaseline } from "./registry-baseline.ts";

const ARN = "arn:aws:sagemaker:us-east-1:123456789012:model-package/dc-router/3";
const REPORT = "s3://artifacts/evaluation-reports/dc-router/run-1.json";

const items: StoredItem[] = ["yes", "no"].map((answer, position) => ({
  position,
  decision: {
    id: `item-${position}`,
    state: "state",
    question: "Refund?",
    options: [
      { id: "no", description: "No" },
      { id: "yes", description: "Yes" },
    ],
  },
  answer,
  category: null,
  tier: null,
}));

function evaluation(overrides: Partial<VersionEvaluation> = {}): VersionEvaluation {
  return {
    runId: "run-1",
    target: "dc-router-prod",
    datasetName: "router set",
    datasetSha256: datasetSha256(items),
    items: 2,
    accuracy: 0.5,
    brier: 0.3,
    ece: 0.1,
    p50Ms: 100,
    p95Ms: 120,
    errors: 0,
    reportUrl: REPORT,
    attachedAt: "2026-12-01T10:00:00.000Z",
    ...overrides,
  };
}

const reportWithOutcomes = {
  metrics: { threshold: { point: { threshold: 0.7 } } },
  outcomes: [
    { itemId: "item-1", optionIds: ["no", "yes"], answer: "no", probabilities: [0.4, 0.6], latencyMs: 120 },
    { itemId: "item-0", optionIds: ["no", "yes"], answer: "yes", probabilities: [0.1, 0.9], latencyMs: 100 },
  ],
};

/** A stub `send` per client: DescribeModelPackage answers `version`, GetObject answers `report`; `asked` records keys. */
function clients(status: string, version: VersionEvaluation | null, report: unknown) {
  const asked: string[] = [];
  const sageMaker = {
    send: async () => ({
      ModelPackageArn: ARN,
      ModelPackageGroupName: "dc-router",
      ModelPackageVersion: 3,
      ModelApprovalStatus: status,
      CustomerMetadataProperties: version ? evaluationMetadata(version) : {},
    }),
  } as unknown as SageMakerClient;
  const s3 = {
    send: async (command: { input: { Bucket: string; Key: string } }) => {
      asked.push(`${command.input.Bucket}/${command.input.Key}`);
      return { Body: { transformToString: async () => JSON.stringify(report) } };
    },
  } as unknown as S3Client;
  return { sageMaker, s3, asked };
}

describe("an Approved registry version as the gate's baseline", () => {
  it("is its attached evaluation's answers, item by item in dataset order, with the threshold it kept", async () => {
    const stub = clients("Approved", evaluation(), reportWithOutcomes);
    const baseline = await registryBaseline(stub, ARN, items);
    expect(stub.asked).toEqual(["artifacts/evaluation-reports/dc-router/run-1.json"]);
    expect(baseline.endpointName).toBe("dc-router version 3");
    expect(baseline.threshold).toBe(0.7);
    expect(baseline.outcomes.map((outcome) => [outcome.itemId, outcome.answer, outcome.probabilities])).toEqual([
      ["item-0", "yes", [0.1, 0.9]],
      ["item-1", "no", [0.4, 0.6]],
    ]);
  });

  it("is refused (an input error) when the version is not Approved", async () => {
    const refused = registryBaseline(clients("PendingManualApproval", evaluation(), reportWithOutcomes), ARN, items);
    await expect(refused).rejects.toThrow(
      /dc-router version 3 is PendingManualApproval; the baseline must be Approved/,
    );
    await expect(refused).rejects.toBeInstanceOf(GateFailure);
  });

  it("is refused when the version has no evaluation attached", async () => {
    await expect(registryBaseline(clients("Approved", null, reportWithOutcomes), ARN, items)).rejects.toThrow(
      /has no evaluation attached/,
    );
  });

  it("is refused when its evaluation ran on other items, naming both datasets' sha256", async () => {
    const other = evaluation({ datasetSha256: "f".repeat(64) });
    await expect(registryBaseline(clients("Approved", other, reportWithOutcomes), ARN, items)).rejects.toThrow(
      `was evaluated on "router set" (2 items, sha256 ${"f".repeat(64)}); this dataset's items have sha256 ${datasetSha256(items)}`,
    );
  });

  it("asks for the evaluation to be attached again when its report keeps no per-item answers", async () => {
    const { outcomes: _, ...older } = reportWithOutcomes;
    await expect(registryBaseline(clients("Approved", evaluation(), older), ARN, items)).rejects.toThrow(
      /holds no per-item answers .* attach the evaluation to dc-router version 3 again/,
    );
  });
});

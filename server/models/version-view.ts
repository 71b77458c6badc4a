import type { DescribeModelPackageOutput } from "@aws-sdk/client-sagemaker";
import { type ApprovalStatus, approvalStatusSchema, type ModelVersion } from "../../contract/models/model-registry.ts";
import { modelDataUrlOf } from "../endpoints/view.ts";
import { evaluationOf, originOf } from "./version-metadata.ts";

const iso = (date: Date | undefined) => (date ? date.toISOString() : null);

function status(value: string | undefined): ApprovalStatus {
  const parsed = approvalStatusSchema.safeParse(value);
  return parsed.success ? parsed.data : "PendingManualApproval";
}

/** A model version as the console shows it, from DescribeModelPackage. */
export function versionOf(described: DescribeModelPackageOutput): ModelVersion {
  const container = described.InferenceSpecification?.Containers?.[0];
  const metadata = described.CustomerMetadataProperties ?? {};
  const origin = originOf(metadata);
  return {
    arn: described.ModelPackageArn ?? "",
    group: described.ModelPackageGroupName ?? "",
    version: described.ModelPackageVersion ?? 0,
    description: described.ModelPackageDescription ?? null,
    status: status(described.ModelApprovalStatus),
    approvalNote: described.ApprovalDescription ?? null,
    createdAt: iso(described.CreationTime) ?? new Date(0).toISOString(),
    updatedAt: iso(described.LastModifiedTime),
    imageUri: container?.Image ?? null,
    modelDataUrl: modelDataUrlOf(container),
    compression: container?.ModelDataUrl ? "Gzip" : container?.ModelDataSource?.S3DataSource ? "None" : null,
    modelSha256: origin.modelSha256,
    modelBytes: origin.modelBytes,
    build: origin.build,
    pins: origin.pins,
    evaluation: evaluationOf(metadata),
  };
}

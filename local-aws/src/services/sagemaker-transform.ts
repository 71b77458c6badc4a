import type {
  CreateTransformJobCommandInput,
  CreateTransformJobCommandOutput,
  DescribeTransformJobCommandInput,
  DescribeTransformJobCommandOutput,
  ListTransformJobsCommandInput,
  ListTransformJobsCommandOutput,
  StopTransformJobCommandInput,
  StopTransformJobCommandOutput,
} from "@aws-sdk/client-sagemaker";
import { arnOf, type SageMakerStore } from "../sagemaker-store.ts";
import type { TransformRunner } from "../transform/transform-runner.ts";
import type { TransformJobRecord, TransformStore } from "../transform/transform-store.ts";
import { AwsError, validation } from "../wire/aws-error.ts";
import type { JsonOperation } from "../wire/json-rpc.ts";
import { asJsonOperations, type TypedOperation } from "../wire/typed-operations.ts";
import { inTimeRange, page } from "./paging.ts";
import { checkTransformJob, checkTransformModel } from "./sagemaker-rules.ts";

function described(job: TransformJobRecord) {
  return {
    ...job.doc,
    TransformJobStatus: job.status,
    FailureReason: job.failureReason ?? undefined,
    CreationTime: job.createdAt,
    TransformStartTime: job.startedAt ?? undefined,
    TransformEndTime: job.endedAt ?? undefined,
  };
}

function sortOf(sortBy: unknown): (a: TransformJobRecord, b: TransformJobRecord) => number {
  if (sortBy === "Name") return (a, b) => a.doc.TransformJobName.localeCompare(b.doc.TransformJobName);
  if (sortBy === "Status") return (a, b) => a.status.localeCompare(b.status);
  return (a, b) => a.createdAt - b.createdAt || a.doc.TransformJobName.localeCompare(b.doc.TransformJobName);
}

type TransformOperations = {
  CreateTransformJob: TypedOperation<CreateTransformJobCommandInput, CreateTransformJobCommandOutput>;
  DescribeTransformJob: TypedOperation<DescribeTransformJobCommandInput, DescribeTransformJobCommandOutput>;
  ListTransformJobs: TypedOperation<ListTransformJobsCommandInput, ListTransformJobsCommandOutput>;
  StopTransformJob: TypedOperation<StopTransformJobCommandInput, StopTransformJobCommandOutput>;
};

/** CreateTransformJob, DescribeTransformJob, ListTransformJobs and StopTransformJob (SageMaker's JSON 1.1 API). */
export function transformOperations(
  store: SageMakerStore,
  jobs: TransformStore,
  runner: TransformRunner,
): Record<string, JsonOperation> {
  const operations: TransformOperations = {
    CreateTransformJob(input, { region }) {
      const name = input.TransformJobName;
      const arn = arnOf(region, "transform-job", name);
      if (jobs.job(name)) {
        throw new AwsError(
          "ResourceInUse",
          `Transform job names must be unique within an AWS account and region, and a transform job with this name already exists (${arn})`,
        );
      }
      checkTransformJob(input as never);
      checkTransformModel(store.requireModel(input.ModelName, region));
      const { Tags: _tags, ...definition } = input;
      jobs.insert({ ...definition, TransformJobArn: arn });
      store.addTags(arn, input.Tags);
      runner.start(name);
      return { TransformJobArn: arn };
    },
    DescribeTransformJob(input) {
      return described(jobs.requireJob(input.TransformJobName));
    },
    ListTransformJobs(input) {
      const nameContains = input.NameContains?.toLowerCase() ?? "";
      const order = sortOf(input.SortBy);
      const direction = input.SortOrder === "Ascending" ? 1 : -1;
      const matching = jobs
        .jobs()
        .filter((job) => job.doc.TransformJobName.toLowerCase().includes(nameContains))
        .filter((job) => input.StatusEquals === undefined || job.status === input.StatusEquals)
        .filter((job) => inTimeRange(job.createdAt, input.CreationTimeAfter, input.CreationTimeBefore))
        .filter((job) => inTimeRange(job.updatedAt, input.LastModifiedTimeAfter, input.LastModifiedTimeBefore))
        .sort((a, b) => direction * order(a, b));
      const { slice, nextToken } = page(matching, input, 10);
      return {
        TransformJobSummaries: slice.map((job) => ({
          TransformJobName: job.doc.TransformJobName,
          TransformJobArn: job.doc.TransformJobArn,
          CreationTime: job.createdAt,
          TransformEndTime: job.endedAt ?? undefined,
          LastModifiedTime: job.updatedAt,
          TransformJobStatus: job.status,
          FailureReason: job.failureReason ?? undefined,
        })),
        NextToken: nextToken,
      };
    },
    StopTransformJob(input) {
      const job = jobs.requireJob(input.TransformJobName);
      if (job.status !== "InProgress") {
        throw validation(
          `The request was rejected because the transform job is in status ${job.status}; only a job InProgress can be stopped.`,
        );
      }
      runner.stop(job.doc.TransformJobName);
      return {};
    },
  };
  return asJsonOperations(operations);
}

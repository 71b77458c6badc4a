import { describe, expect, it } from "vitest";
import { applicationAutoScalingService } from "../../services/application-auto-scaling.ts";
import { cloudWatchService } from "../../services/cloudwatch.ts";
import { cloudWatchLogsService } from "../../services/cloudwatch-logs.ts";
import { codeBuildService } from "../../services/codebuild.ts";
import { ecrService } from "../../services/ecr.ts";
import { sageMakerService } from "../../services/sagemaker.ts";
import type { AuthorizationQuery } from "../evaluate.ts";
import { sampleFacts, sampleInputs, sampleS3Requests } from "../test-support/sample-requests.ts";
import { allowedConditionKeys, fitsAction, iamActionDetails } from "../test-support/service-reference.ts";
import { jsonActionPrefix, jsonAuthorization } from "./index.ts";
import { s3Authorization } from "./s3.ts";
import { runtimeAuthorization } from "./sagemaker.ts";

/** The served operations, read from the services themselves (their stores are not touched to list them). */
const none = undefined as never;
const services = [
  sageMakerService(
    none,
    none,
    none,
    none,
    none,
    none,
    () => [],
    none,
    () => true,
  ),
  codeBuildService(none, none),
  ecrService(none),
  cloudWatchLogsService(none),
  cloudWatchService(none, none),
  applicationAutoScalingService(none, none, none, none, Date.now, none),
];

async function referenceProblems(label: string, queries: AuthorizationQuery[]): Promise<string[]> {
  const problems: string[] = [];
  if (queries.length === 0) problems.push(`${label}: no authorisation query`);
  for (const query of queries) {
    const [service = "", name = ""] = query.action.split(":");
    const details = await iamActionDetails(service, name).catch(() => undefined);
    if (!details) {
      problems.push(`${label}: ${query.action} is not an IAM action`);
      continue;
    }
    if (!(await fitsAction(query.action, query.resource))) {
      problems.push(`${label}: ${query.resource} is not a resource type of ${query.action}`);
    }
    const allowed = await allowedConditionKeys(query.action);
    for (const key of Object.keys(query.context)) {
      if (!allowed(key)) problems.push(`${label}: ${query.action} has no condition key ${key}`);
    }
  }
  return problems;
}

describe("request -> authorisation context, checked against the Service Authorization Reference", () => {
  it("has a rule for every JSON operation local mode serves, and none for operations it does not", () => {
    for (const service of services) {
      const rules = jsonAuthorization[service.target] ?? {};
      expect(Object.keys(rules).sort(), service.target).toEqual(Object.keys(service.operations).sort());
    }
  });

  it("knows the IAM prefix of every served service's actions, for the operations it does not serve", () => {
    for (const service of services) {
      const prefix = jsonActionPrefix[service.target];
      const actions = Object.keys(service.operations).flatMap((operation) =>
        jsonAuthorization[service.target]![operation]!(sampleInputs[operation] ?? {}, sampleFacts).map(
          (query) => query.action,
        ),
      );
      expect(actions.filter((action) => !action.startsWith(`${prefix}:`) && !action.startsWith("iam:"))).toEqual([]);
    }
  });

  it("names real actions, ARNs of their resource types and condition keys AWS defines for them", async () => {
    const problems: string[] = [];
    for (const service of services) {
      for (const operation of Object.keys(service.operations)) {
        const input = sampleInputs[operation];
        if (!input) {
          problems.push(`${service.target}.${operation}: no sample input`);
          continue;
        }
        const queries = jsonAuthorization[service.target]![operation]!(input, sampleFacts);
        problems.push(...(await referenceProblems(`${service.target}.${operation}`, queries)));
      }
    }
    for (const operation of ["InvokeEndpoint", "InvokeEndpointWithResponseStream", "InvokeEndpointAsync"] as const) {
      problems.push(
        ...(await referenceProblems(operation, runtimeAuthorization(operation, "dc-e", "model.tar.gz", sampleFacts))),
      );
    }
    for (const [method, bucket, key, query] of sampleS3Requests) {
      const queries = s3Authorization({ method, bucket, key, query: new URLSearchParams(query) });
      problems.push(...(await referenceProblems(`S3 ${method} /${bucket}/${key}?${query}`, queries)));
    }
    expect(problems).toEqual([]);
  });

  it("authorises CreateEndpoint on both of its required resources and CreateModel's role as iam:PassRole", () => {
    const create = jsonAuthorization.SageMaker!.CreateEndpoint!(sampleInputs.CreateEndpoint!, sampleFacts);
    expect(create.filter((q) => q.action === "sagemaker:CreateEndpoint").map((q) => q.resource)).toEqual([
      "arn:aws:sagemaker:us-east-1:000000000000:endpoint/dc-e",
      "arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/dc-c",
    ]);
    const model = jsonAuthorization.SageMaker!.CreateModel!(sampleInputs.CreateModel!, sampleFacts);
    expect(model.find((q) => q.action === "iam:PassRole")).toEqual({
      action: "iam:PassRole",
      resource: "arn:aws:iam::000000000000:role/r",
      context: {
        "iam:PassedToService": "sagemaker.amazonaws.com",
        "iam:AssociatedResourceArn": "arn:aws:sagemaker:us-east-1:000000000000:model/dc-m",
      },
    });
    expect(model.find((q) => q.action === "sagemaker:AddTags")?.context).toMatchObject({
      "aws:RequestTag/team": "blue",
      "sagemaker:TaggingAction": "CreateModel",
    });
  });
});

import { describe, expect, it } from "vitest";
import type { LocalPrincipal } from "../local-credentials.ts";
import { testExecutionRoleArn, testStackFixture } from "../test-support/stack-fixture.ts";
import { AwsError } from "../wire/aws-error.ts";
import { LocalAuthorizer } from "./authorize.ts";
import { RequestAuthorizer } from "./request-authorizer.ts";
import type { RequestFacts, ScalableTargetFacts } from "./requests/facts.ts";
import { loadStackPolicies } from "./stack-policies.ts";

/** The console's stack deployed with CONSOLE_RESOURCE_PREFIX=dc- in the local account. */
const ACCOUNT = "000000000000";
const REGION = "us-east-1";
const policies = loadStackPolicies(testStackFixture().stack, {
  accountId: ACCOUNT,
  region: REGION,
  namePrefix: "dc-",
  bucketName: "decision-console-local",
});
const targets = new Map<string, ScalableTargetFacts>();
const facts = (region: string): RequestFacts => ({
  region,
  accountId: ACCOUNT,
  sageMakerTags: () => ({}),
  scalableTarget: (namespace, resourceId, dimension) => targets.get(`${namespace} ${resourceId} ${dimension}`),
});
const iam = new RequestAuthorizer(new LocalAuthorizer(policies, ACCOUNT), facts);
const consolePrincipal: LocalPrincipal = { kind: "console" };
const consoleArn = `arn:aws:iam::${ACCOUNT}:user/decision-console`;

function denial(call: () => void): AwsError | undefined {
  try {
    call();
    return undefined;
  } catch (error) {
    if (error instanceof AwsError) return error;
    throw error;
  }
}

const sageMaker = (operation: string, input: Record<string, unknown>, principal: LocalPrincipal = consolePrincipal) =>
  denial(() => iam.json(principal, "SageMaker", operation, input, REGION));

describe("the console principal under the policy the stack synthesises (prefix dc-)", () => {
  it("lists every endpoint, another team's included", () => {
    expect(sageMaker("ListEndpoints", {})).toBeUndefined();
  });

  it("gets AWS's AccessDeniedException deleting another team's endpoint", () => {
    const error = sageMaker("DeleteEndpoint", { EndpointName: "team-b-ranker" });
    expect(error).toMatchObject({ code: "AccessDeniedException", status: 400 });
    expect(error?.message).toBe(
      `User: ${consoleArn} is not authorized to perform: sagemaker:DeleteEndpoint on resource: arn:aws:sagemaker:${REGION}:${ACCOUNT}:endpoint/team-b-ranker because no identity-based policy allows the sagemaker:DeleteEndpoint action`,
    );
    expect(sageMaker("DeleteEndpoint", { EndpointName: "dc-ranker" })).toBeUndefined();
  });

  it("is denied actions outside its policy, on its own resources too", () => {
    expect(
      sageMaker("AddTags", { ResourceArn: `arn:aws:sagemaker:${REGION}:${ACCOUNT}:endpoint/dc-x`, Tags: [] })?.message,
    ).toMatch(
      /not authorized to perform: sagemaker:AddTags on resource: .*endpoint\/dc-x because no identity-based policy allows/,
    );
    const projects = denial(() =>
      iam.json(
        consolePrincipal,
        "CodeBuild_20161006",
        "BatchGetProjects",
        { names: ["decision-console-model-package"] },
        REGION,
      ),
    );
    expect(projects?.message).toMatch(
      /codebuild:BatchGetProjects on resource: arn:aws:codebuild:us-east-1:000000000000:project\/decision-console-model-package/,
    );
  });

  it("matches the prefix case-sensitively against SageMaker's lower-cased ARNs", () => {
    expect(sageMaker("DescribeEndpoint", { EndpointName: "DC-Upper" })).toBeUndefined();
    expect(sageMaker("DescribeEndpoint", { EndpointName: "Dc" })?.code).toBe("AccessDeniedException");
  });

  it("matches registry names as they are: a registry ARN keeps the name's case, unlike an endpoint's", () => {
    expect(sageMaker("CreateModelPackageGroup", { ModelPackageGroupName: "dc-Router" })).toBeUndefined();
    expect(sageMaker("CreateModelPackageGroup", { ModelPackageGroupName: "DC-Router" })?.message).toMatch(
      /sagemaker:CreateModelPackageGroup on resource: arn:aws:sagemaker:us-east-1:000000000000:model-package-group\/DC-Router /,
    );
    expect(sageMaker("DescribeModelPackageGroup", { ModelPackageGroupName: "DC-Router" })?.code).toBe(
      "AccessDeniedException",
    );
  });

  it("creates a model only when it passes the execution role, to SageMaker", () => {
    const model = { ModelName: "dc-model", PrimaryContainer: { Image: "x" }, EnableNetworkIsolation: true };
    expect(sageMaker("CreateModel", { ...model, ExecutionRoleArn: testExecutionRoleArn() })).toBeUndefined();
    const other = `arn:aws:iam::${ACCOUNT}:role/admin`;
    expect(sageMaker("CreateModel", { ...model, ExecutionRoleArn: other })?.message).toBe(
      `User: ${consoleArn} is not authorized to perform: iam:PassRole on resource: ${other} because no identity-based policy allows the iam:PassRole action`,
    );
  });

  it("creates a model from a version of its own registry groups only (issues 50.2 and 51.2)", () => {
    const version = (group: string) => `arn:aws:sagemaker:${REGION}:${ACCOUNT}:model-package/${group}/3`;
    const fromVersion = (container: Record<string, unknown>) =>
      sageMaker("CreateModel", { ModelName: "dc-router-v3", ExecutionRoleArn: testExecutionRoleArn(), ...container });
    expect(fromVersion({ PrimaryContainer: { ModelPackageName: version("dc-router") } })).toBeUndefined();
    expect(fromVersion({ Containers: [{ ModelPackageName: version("dc-router") }] })).toBeUndefined();
    expect(fromVersion({ PrimaryContainer: { ModelPackageName: version("team-b-router") } })?.message).toBe(
      `User: ${consoleArn} is not authorized to perform: sagemaker:CreateModel on resource: ${version("team-b-router")} because no identity-based policy allows the sagemaker:CreateModel action`,
    );
    expect(
      fromVersion({
        Containers: [{ ModelPackageName: version("dc-router") }, { ModelPackageName: version("team-b-router") }],
      })?.code,
    ).toBe("AccessDeniedException");
    expect(fromVersion({ PrimaryContainer: { ModelPackageName: "team-b-router" } })?.message).toMatch(
      /sagemaker:CreateModel on resource: arn:aws:sagemaker:us-east-1:000000000000:model-package\/team-b-router /,
    );
  });

  it("serves only prefixed models: sagemaker:ModelArn of every variant, and of a transform job", () => {
    const config = (...models: string[]) =>
      sageMaker("CreateEndpointConfig", {
        EndpointConfigName: "dc-c",
        ProductionVariants: models.map((ModelName, i) => ({ VariantName: `v${i}`, ModelName })),
      });
    expect(config("dc-a")).toBeUndefined();
    expect(config("dc-a", "DC-B")).toBeUndefined();
    expect(config("team-b-prod")?.message).toMatch(
      /sagemaker:CreateEndpointConfig on resource: .*endpoint-config\/dc-c/,
    );
    expect(config("dc-a", "team-b-prod")?.code).toBe("AccessDeniedException");
    expect(config()?.code).toBe("AccessDeniedException");
    const job = (ModelName: string) => sageMaker("CreateTransformJob", { TransformJobName: "dc-t", ModelName });
    expect(job("dc-a")).toBeUndefined();
    expect(job("team-b-prod")?.code).toBe("AccessDeniedException");
  });

  it("needs both the endpoint and the endpoint config to be prefixed to create an endpoint", () => {
    expect(sageMaker("CreateEndpoint", { EndpointName: "dc-e", EndpointConfigName: "dc-e" })).toBeUndefined();
    expect(sageMaker("CreateEndpoint", { EndpointName: "dc-e", EndpointConfigName: "shared-config" })?.message).toMatch(
      /endpoint-config\/shared-config/,
    );
  });

  it("writes and lists only build sources in the bucket, with S3's AccessDenied shape", () => {
    const s3 = (method: string, bucket: string, key: string, query = "") =>
      denial(() => iam.s3(consolePrincipal, REGION, { method, bucket, key, query: new URLSearchParams(query) }));
    expect(s3("PUT", "decision-console-local", "build-sources/abc.zip")).toBeUndefined();
    expect(
      s3("GET", "decision-console-local", "", "list-type=2&prefix=build-sources/abc.zip&max-keys=1"),
    ).toBeUndefined();
    const put = s3("PUT", "decision-console-local", "models/abc/model.tar.gz");
    expect(put).toMatchObject({ code: "AccessDenied", status: 403 });
    expect(put?.message).toBe(
      `User: ${consoleArn} is not authorized to perform: s3:PutObject on resource: "arn:aws:s3:::decision-console-local/models/abc/model.tar.gz" because no identity-based policy allows the s3:PutObject action`,
    );
    expect(s3("GET", "decision-console-local", "", "list-type=2")?.code).toBe("AccessDenied");
    expect(s3("DELETE", "decision-console-local", "build-sources/abc.zip")?.code).toBe("AccessDenied");
  });

  it("reads, lists and writes only its own endpoints' and groups' S3 folders (issue 51.3)", () => {
    const s3 = (method: string, key: string, query = "") =>
      denial(() =>
        iam.s3(consolePrincipal, REGION, {
          method,
          bucket: "decision-console-local",
          key,
          query: new URLSearchParams(query),
        }),
      )?.code;
    const list = (prefix: string) => s3("GET", "", `list-type=2&prefix=${encodeURIComponent(prefix)}`);
    expect(s3("GET", "data-capture/dc-e/AllTraffic/2026/12/07/10/a.jsonl")).toBeUndefined();
    expect(list("data-capture/dc-e/")).toBeUndefined();
    expect(s3("GET", "data-capture/team-b-prod/AllTraffic/2026/12/07/10/a.jsonl")).toBe("AccessDenied");
    expect(list("data-capture/team-b-prod/")).toBe("AccessDenied");
    expect(list("data-capture/")).toBe("AccessDenied");

    expect(s3("PUT", "async/dc-e/in/r1.json")).toBeUndefined();
    expect(s3("GET", "async/dc-e/out/r1.out")).toBeUndefined();
    expect(list("async/dc-e/failed/r1.out")).toBeUndefined();
    expect(s3("PUT", "async/team-b-prod/in/r1.json")).toBe("AccessDenied");
    expect(s3("GET", "async/team-b-prod/out/r1.out")).toBe("AccessDenied");
    expect(s3("GET", "async/team-b-prod/failed/r1.out")).toBe("AccessDenied");
    expect(list("async/team-b-prod/out/r1.out")).toBe("AccessDenied");

    expect(s3("PUT", "evaluation-reports/dc-router/run-1.json")).toBeUndefined();
    expect(s3("PUT", "evaluation-reports/team-b-router/run-1.json")).toBe("AccessDenied");
  });

  it("changes only SageMaker variant targets carrying its tag, and registers only with the tag", () => {
    const target = {
      ServiceNamespace: "sagemaker",
      ResourceId: "endpoint/dc-e/variant/AllTraffic",
      ScalableDimension: "sagemaker:variant:DesiredInstanceCount",
    };
    const aas = (operation: string, input: Record<string, unknown>) =>
      denial(() => iam.json(consolePrincipal, "AnyScaleFrontendService", operation, input, REGION));
    // The tag the stack's console policy conditions scalable-target changes on.
    const tag = { "decision-console:managed-by": "decision-console" };
    expect(aas("RegisterScalableTarget", { ...target, MinCapacity: 1, MaxCapacity: 2, Tags: tag })).toBeUndefined();
    expect(aas("RegisterScalableTarget", { ...target, MinCapacity: 1, MaxCapacity: 2 })?.code).toBe(
      "AccessDeniedException",
    );
    // Its tag and no other: a registration's tags are added to an existing target's.
    const tagged = { ...target, MinCapacity: 1, MaxCapacity: 2, Tags: { ...tag, team: "b" } };
    expect(aas("RegisterScalableTarget", tagged)?.code).toBe("AccessDeniedException");
    const key = `${target.ServiceNamespace} ${target.ResourceId} ${target.ScalableDimension}`;
    targets.set(key, { arn: `arn:aws:application-autoscaling:${REGION}:${ACCOUNT}:scalable-target/0ours`, tags: tag });
    expect(aas("DeregisterScalableTarget", target)).toBeUndefined();
    targets.set(key, { arn: `arn:aws:application-autoscaling:${REGION}:${ACCOUNT}:scalable-target/0theirs`, tags: {} });
    expect(aas("DeregisterScalableTarget", target)?.message).toMatch(
      /application-autoscaling:DeregisterScalableTarget on resource: .*scalable-target\/0theirs/,
    );
    const ecs = {
      ServiceNamespace: "ecs",
      ResourceId: "service/default/web",
      ScalableDimension: "ecs:service:DesiredCount",
    };
    targets.set(`ecs ${ecs.ResourceId} ${ecs.ScalableDimension}`, {
      arn: `arn:aws:application-autoscaling:${REGION}:${ACCOUNT}:scalable-target/0ecs`,
      tags: tag,
    });
    expect(aas("DeregisterScalableTarget", ecs)?.code).toBe("AccessDeniedException");
    expect(aas("DescribeScalableTargets", { ServiceNamespace: "sagemaker" })).toBeUndefined();

    // A target-tracking policy also needs CloudWatch on the alarms it gets (TargetTracking-<resource id>-...).
    const tracking = { PolicyName: "p", PolicyType: "TargetTrackingScaling" };
    targets.set(key, { arn: `arn:aws:application-autoscaling:${REGION}:${ACCOUNT}:scalable-target/0ours`, tags: tag });
    expect(aas("PutScalingPolicy", { ...target, ...tracking })).toBeUndefined();
    const unprefixed = { ...target, ResourceId: "endpoint/team-b/variant/AllTraffic" };
    targets.set(`${unprefixed.ServiceNamespace} ${unprefixed.ResourceId} ${unprefixed.ScalableDimension}`, {
      arn: `arn:aws:application-autoscaling:${REGION}:${ACCOUNT}:scalable-target/0tagged`,
      tags: tag,
    });
    expect(aas("PutScalingPolicy", { ...unprefixed, PolicyName: "p", PolicyType: "StepScaling" })).toBeUndefined();
    expect(aas("PutScalingPolicy", { ...unprefixed, ...tracking })?.message).toMatch(
      /cloudwatch:DescribeAlarms on resource: .*alarm:TargetTracking-endpoint\/team-b\/variant\/AllTraffic-AlarmHigh/,
    );
  });

  it("puts alarms that act only on its own endpoints' scaling policies, in every state (issue 51.1)", () => {
    const policy = (endpoint: string) =>
      `arn:aws:autoscaling:${REGION}:${ACCOUNT}:scalingPolicy:0f3c2a8e-5b1d-4c7a-9e2f-6a4b8c1d2e3f:resource/sagemaker/endpoint/${endpoint}/variant/AllTraffic:policyName/wake`;
    const alarm = (actions: Record<string, string[]>) =>
      denial(() =>
        iam.json(
          consolePrincipal,
          "GraniteServiceVersion20100801",
          "PutMetricAlarm",
          { AlarmName: "dc-e-wake-up", ...actions },
          REGION,
        ),
      );
    expect(alarm({})).toBeUndefined();
    expect(alarm({ AlarmActions: [policy("dc-e")] })).toBeUndefined();
    expect(alarm({ AlarmActions: [policy("team-b-prod")] })?.message).toBe(
      `User: ${consoleArn} is not authorized to perform: cloudwatch:PutMetricAlarm on resource: arn:aws:cloudwatch:${REGION}:${ACCOUNT}:alarm:dc-e-wake-up because no identity-based policy allows the cloudwatch:PutMetricAlarm action`,
    );
    expect(alarm({ AlarmActions: [policy("dc-e"), policy("team-b-prod")] })?.code).toBe("AccessDeniedException");
    expect(alarm({ OKActions: [policy("team-b-prod")] })?.code).toBe("AccessDeniedException");
    expect(alarm({ InsufficientDataActions: [policy("team-b-prod")] })?.code).toBe("AccessDeniedException");
    expect(alarm({ AlarmActions: [`arn:aws:sns:${REGION}:${ACCOUNT}:pager`] })?.code).toBe("AccessDeniedException");
    // A policy name cannot smuggle the prefix in: the policy id before it is a UUID.
    const smuggled = `arn:aws:autoscaling:${REGION}:${ACCOUNT}:scalingPolicy:x:resource/sagemaker/endpoint/team-b/variant/v:policyName/p:resource/sagemaker/endpoint/dc-e`;
    expect(alarm({ AlarmActions: [smuggled] })?.code).toBe("AccessDeniedException");
  });

  it("invokes only prefixed endpoints", () => {
    expect(denial(() => iam.runtime(consolePrincipal, REGION, "InvokeEndpoint", "dc-e", undefined))).toBeUndefined();
    const other = denial(() =>
      iam.runtime(consolePrincipal, REGION, "InvokeEndpointWithResponseStream", "team-b", undefined),
    );
    expect(other).toMatchObject({ code: "AccessDeniedException", status: 403 });
  });

  it("is denied everything in a region the stack was not deployed to", () => {
    expect(
      denial(() => iam.json(consolePrincipal, "SageMaker", "DescribeEndpoint", { EndpointName: "dc-e" }, "eu-west-3"))
        ?.code,
    ).toBe("AccessDeniedException");
  });
});

describe("other principals", () => {
  it("leaves admin unrestricted", () => {
    expect(sageMaker("DeleteEndpoint", { EndpointName: "team-b-ranker" }, { kind: "admin" })).toBeUndefined();
  });

  it("holds each CodeBuild job to its own project's role", () => {
    const packager: LocalPrincipal = {
      kind: "codebuild",
      project: "decision-console-model-package",
      buildId: "decision-console-model-package:u1",
    };
    const imageBuild: LocalPrincipal = {
      kind: "codebuild",
      project: "decision-console-image-build",
      buildId: "decision-console-image-build:u2",
    };
    const put = (principal: LocalPrincipal, key: string) =>
      denial(() =>
        iam.s3(principal, REGION, {
          method: "PUT",
          bucket: "decision-console-local",
          key,
          query: new URLSearchParams(),
        }),
      );
    expect(put(packager, "models/abc/model.tar.gz")).toBeUndefined();
    expect(put(packager, "build-sources/abc.zip")?.code).toBe("AccessDenied");
    const denied = put(imageBuild, "models/abc/model.tar.gz");
    expect(denied?.message).toMatch(
      /^User: arn:aws:sts::000000000000:assumed-role\/DecisionConsole-ImageBuildRole[0-9A-F]{8}\/AWSCodeBuild-u2 is not authorized to perform: s3:PutObject/,
    );
  });
});

describe("the execution role's image pulls", () => {
  const role = testExecutionRoleArn();
  const repository = (account: string, name: string) => `arn:aws:ecr:${REGION}:${account}:repository/${name}`;

  it("may pull the adapter repository and the Region's llama.cpp DLC repository, and nothing else", () => {
    expect(iam.executionRoleMayPull(role, repository(ACCOUNT, "decision-adapter"))).toBe(true);
    expect(iam.executionRoleMayPull(role, repository("763104351884", "llama-cpp"))).toBe(true);
    expect(iam.executionRoleMayPull(role, repository("763104351884", "vllm"))).toBe(false);
    expect(iam.executionRoleMayPull(role, repository(ACCOUNT, "other-team"))).toBe(false);
  });

  it("knows no policy of another role", () => {
    expect(iam.executionRoleMayPull(`arn:aws:iam::${ACCOUNT}:role/other`, repository(ACCOUNT, "x"))).toBeUndefined();
  });
});

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { App } from "aws-cdk-lib";
import { Match, Template } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import {
  CONSOLE_MODEL_TAG_KEYS,
  CONSOLE_SCALABLE_TARGET_TAG,
  DRIFT_METRICS,
} from "../../contract/stack/console-contract.ts";
import { LLAMA_CPP_DLC_ACCOUNTS } from "../../contract/stack/llama-cpp-dlc.ts";
import { flattenReference } from "./cfn-reference.ts";
import { DecisionConsoleStack } from "./decision-console-stack.ts";

/** The DLC account, looked up per Region from the stack's mapping. */
const dlcAccount = "<LlamaCppDlcAccounts[<AWS::Region>].account>";
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const PREFIX = "dc-";

interface Statement {
  Sid?: string;
  Effect: "Allow" | "Deny";
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

let template: Template;
let resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;

/** CloudFormation intrinsics as readable text without logical-id hashes: `<ArtifactBucket.Arn>/models/*`. */
function render(value: unknown): string {
  return flattenReference(value).replace(/<([A-Za-z0-9]+?)[0-9A-F]{8}(\.[A-Za-z]+)?>/g, "<$1$2>");
}

const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** Every Allow statement of every role's inline policies and every managed policy, with where it lives. */
function allowStatements(): { owner: string; statement: Statement }[] {
  const found: { owner: string; statement: Statement }[] = [];
  for (const [id, resource] of Object.entries(resources)) {
    const documents =
      resource.Type === "AWS::IAM::Role"
        ? ((resource.Properties.Policies as { PolicyDocument: { Statement: Statement[] } }[] | undefined) ?? []).map(
            (p) => p.PolicyDocument,
          )
        : resource.Type === "AWS::IAM::ManagedPolicy" || resource.Type === "AWS::IAM::Policy"
          ? [resource.Properties.PolicyDocument as { Statement: Statement[] }]
          : [];
    for (const document of documents) {
      for (const statement of document.Statement)
        if (statement.Effect === "Allow") found.push({ owner: id, statement });
    }
  }
  return found;
}

function statementsOf(logicalIdStart: string): Statement[] {
  return allowStatements()
    .filter(({ owner }) => owner.startsWith(logicalIdStart))
    .map(({ statement }) => statement);
}

function actionsOf(statements: Statement[]): string[] {
  return statements.flatMap((statement) => list(statement.Action)).sort();
}

function resourcesOf(statements: Statement[], action: string): string[] {
  return statements
    .filter((statement) => list(statement.Action).includes(action))
    .flatMap((statement) => list(statement.Resource).map(render));
}

beforeAll(() => {
  const stack = new DecisionConsoleStack(new App(), "DecisionConsole", { sageMakerNamePrefix: PREFIX });
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources;
}, 120_000);

describe("artifact bucket", () => {
  it("is encrypted, versioned and closed to the public", () => {
    template.hasResourceProperties("AWS::S3::Bucket", {
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      VersioningConfiguration: { Status: "Enabled" },
    });
  });

  it("refuses every request that does not use TLS", () => {
    template.hasResourceProperties("AWS::S3::BucketPolicy", {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: "Deny",
            Action: "s3:*",
            Principal: { AWS: "*" },
            Condition: { Bool: { "aws:SecureTransport": "false" } },
          }),
        ]),
      },
    });
  });
});

describe("adapter repository", () => {
  it("has immutable tags, scans on push and expires old images", () => {
    template.hasResourceProperties("AWS::ECR::Repository", {
      RepositoryName: "decision-adapter",
      ImageTagMutability: "IMMUTABLE",
      ImageScanningConfiguration: { ScanOnPush: true },
    });
    const repository = Object.values(resources).find((r) => r.Type === "AWS::ECR::Repository")!;
    const lifecycle = JSON.parse(
      (repository.Properties.LifecyclePolicy as { LifecyclePolicyText: string }).LifecyclePolicyText,
    ) as { rules: { selection: { tagStatus: string; countType: string } }[] };
    expect(lifecycle.rules.map((rule) => [rule.selection.tagStatus, rule.selection.countType])).toEqual([
      ["untagged", "sinceImagePushed"],
      ["any", "imageCountMoreThan"],
    ]);
  });
});

describe("CodeBuild projects", () => {
  it.each([
    ["decision-console-model-package", "infra/buildspecs/model-package.yml", false],
    ["decision-console-image-build", "infra/buildspecs/image-build.yml", true],
    ["decision-console-console-image-build", "infra/buildspecs/console-image.yml", true],
  ])("%s runs %s from the repository (privileged: %s)", (name, buildspec, privileged) => {
    template.hasResourceProperties("AWS::CodeBuild::Project", {
      Name: name,
      Source: Match.objectLike({ Type: "S3", BuildSpec: buildspec }),
      Environment: Match.objectLike({ PrivilegedMode: privileged }),
    });
    expect(existsSync(join(repoRoot, buildspec))).toBe(true);
  });

  it("give the packager no ECR access and the image build no write access to models", () => {
    expect(actionsOf(statementsOf("ModelPackageBuildRole")).filter((a) => a.startsWith("ecr:"))).toEqual([]);
    expect(resourcesOf(statementsOf("ModelPackageBuildRole"), "s3:PutObject")).toEqual([
      "<ArtifactBucket.Arn>/models/*",
    ]);
    expect(resourcesOf(statementsOf("ImageBuildRole"), "s3:PutObject")).toEqual([]);
    expect(resourcesOf(statementsOf("ImageBuildRole"), "ecr:PutImage")).toEqual(["<AdapterRepository.Arn>"]);
  });

  it("give the console image build a role of its own that pushes only to the console image's repository", () => {
    const statements = statementsOf("ConsoleImageBuildRole");
    expect(resourcesOf(statements, "ecr:PutImage")).toEqual(["<ConsoleImageRepository.Arn>"]);
    expect(resourcesOf(statements, "s3:GetObject")).toEqual(["<ArtifactBucket.Arn>/build-sources/*"]);
    expect(resourcesOf(statements, "s3:PutObject")).toEqual([]);
    expect(actionsOf(statements).filter((action) => !/^(ecr|logs|s3):/.test(action))).toEqual([]);
    template.hasResourceProperties("AWS::CodeBuild::Project", {
      Name: "decision-console-console-image-build",
      Environment: Match.objectLike({
        EnvironmentVariables: [{ Name: "IMAGE_REPOSITORY", Type: "PLAINTEXT", Value: Match.anyValue() }],
      }),
    });
  });
});

describe("console image repository", () => {
  it("has immutable tags, scans on push and is named in the outputs", () => {
    template.hasResourceProperties("AWS::ECR::Repository", {
      RepositoryName: "decision-console",
      ImageTagMutability: "IMMUTABLE",
      ImageScanningConfiguration: { ScanOnPush: true },
    });
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(render(outputs.ConsoleImageRepositoryName?.Value)).toBe("<ConsoleImageRepository>");
    expect(outputs.ConsoleImageBuildProjectName).toBeDefined();
    expect(outputs.ConsoleImageRepositoryUri).toBeDefined();
  });
});

describe("SageMaker execution role", () => {
  it("can be assumed only by SageMaker for this account", () => {
    template.hasResourceProperties("AWS::IAM::Role", {
      AssumeRolePolicyDocument: {
        Statement: [
          Match.objectLike({
            Principal: { Service: "sagemaker.amazonaws.com" },
            Condition: { StringEquals: { "aws:SourceAccount": { Ref: "AWS::AccountId" } } },
          }),
        ],
      },
    });
  });

  it("reads models, async requests and batch inputs, pulls only the adapter and DLC repositories, writes only its logs", () => {
    const statements = statementsOf("SageMakerExecutionRole");
    expect(resourcesOf(statements, "s3:GetObject")).toEqual([
      "<ArtifactBucket.Arn>/models/*",
      "<ArtifactBucket.Arn>/batch/inputs/*",
      "<ArtifactBucket.Arn>/async/*/in/*",
    ]);
    expect(statements.filter((s) => list(s.Action).includes("s3:ListBucket")).map((s) => s.Condition)).toEqual([
      { StringLike: { "s3:prefix": ["models/*"] } },
      { StringLike: { "s3:prefix": ["batch/inputs/*"] } },
    ]);
    expect(resourcesOf(statements, "ecr:BatchGetImage")).toEqual([
      "<AdapterRepository.Arn>",
      `arn:<AWS::Partition>:ecr:<AWS::Region>:${dlcAccount}:repository/llama-cpp`,
    ]);
    expect(resourcesOf(statements, "logs:PutLogEvents")).toEqual([
      `arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:/aws/sagemaker/Endpoints/${PREFIX}*`,
      `arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:/aws/sagemaker/Endpoints/${PREFIX}*:*`,
      "arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:/aws/sagemaker/TransformJobs",
      `arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:/aws/sagemaker/TransformJobs:log-stream:${PREFIX}*`,
    ]);
    expect(actionsOf(statements).some((action) => action.startsWith("ecr:Put"))).toBe(false);
    // Transform jobs write outputs only: never over their inputs, which the console wrote.
    expect(resourcesOf(statements, "s3:PutObject")).toEqual([
      "<ArtifactBucket.Arn>/batch/outputs/*",
      "<ArtifactBucket.Arn>/async/*/out/*",
      "<ArtifactBucket.Arn>/async/*/failed/*",
      "<ArtifactBucket.Arn>/data-capture/*",
    ]);
    // https://docs.aws.amazon.com/sagemaker/latest/dg/async-inference-create-endpoint-prerequisites.html lists
    // s3:AbortMultipartUpload beside s3:PutObject for the results.
    expect(resourcesOf(statements, "s3:AbortMultipartUpload")).toEqual([
      "<ArtifactBucket.Arn>/batch/outputs/*",
      "<ArtifactBucket.Arn>/async/*/out/*",
      "<ArtifactBucket.Arn>/async/*/failed/*",
    ]);
  });

  it("notifies only prefixed topics", () => {
    const statements = statementsOf("SageMakerExecutionRole");
    expect(resourcesOf(statements, "sns:Publish")).toEqual([
      `arn:<AWS::Partition>:sns:<AWS::Region>:<AWS::AccountId>:${PREFIX}*`,
    ]);
  });

  it("has every permission AWS documents for a CreateModel execution role, for what the console deploys", () => {
    // https://docs.aws.amazon.com/sagemaker/latest/dg/sagemaker-roles.html, "CreateModel API: Execution Role
    // Permissions" (VPC actions omitted: endpoints run with network isolation and no VpcConfig).
    const documented = [
      "cloudwatch:PutMetricData",
      "logs:CreateLogStream",
      "logs:PutLogEvents",
      "logs:CreateLogGroup",
      "logs:DescribeLogStreams",
      "ecr:GetAuthorizationToken",
      "ecr:BatchCheckLayerAvailability",
      "ecr:GetDownloadUrlForLayer",
      "ecr:BatchGetImage",
      "s3:GetObject",
      "s3:ListBucket",
    ];
    const granted = new Set(actionsOf(statementsOf("SageMakerExecutionRole")));
    expect(documented.filter((action) => !granted.has(action))).toEqual([]);
  });

  it("reads only the console's alarms, as deployment guardrails read an update's rollback alarms", () => {
    expect(resourcesOf(statementsOf("SageMakerExecutionRole"), "cloudwatch:DescribeAlarms")).toEqual([
      `arn:<AWS::Partition>:cloudwatch:<AWS::Region>:<AWS::AccountId>:alarm:${PREFIX}*`,
    ]);
  });
});

describe("llama.cpp DLC repository", () => {
  it("is the DLC account's llama-cpp repository of the stack's own Region, from the documented account table", () => {
    const mappings = template.toJSON().Mappings as Record<string, Record<string, { account: string }>>;
    expect(mappings.LlamaCppDlcAccounts?.["eu-south-1"]).toEqual({ account: "692866216735" });
    expect(mappings.LlamaCppDlcAccounts?.["us-east-1"]).toEqual({ account: "763104351884" });
    expect(Object.keys(mappings.LlamaCppDlcAccounts ?? {}).sort()).toEqual(Object.keys(LLAMA_CPP_DLC_ACCOUNTS).sort());
  });

  it("gives the execution role exactly the pull actions on it, and the console only DescribeImages", () => {
    const dlc = `arn:<AWS::Partition>:ecr:<AWS::Region>:${dlcAccount}:repository/llama-cpp`;
    const onDlc = (statements: Statement[]) =>
      statements.filter((s) => list(s.Resource).map(render).includes(dlc)).flatMap((s) => list(s.Action));
    expect(onDlc(statementsOf("SageMakerExecutionRole")).sort()).toEqual([
      "ecr:BatchCheckLayerAvailability",
      "ecr:BatchGetImage",
      "ecr:GetDownloadUrlForLayer",
    ]);
    expect(onDlc(statementsOf("ConsolePolicy"))).toEqual(["ecr:DescribeImages"]);
  });
});

describe("stack properties", () => {
  it("pins the CDK CLI exactly, so `npx cdk` runs the tested version without a download", () => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    const pinned = manifest.devDependencies["aws-cdk"];
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    const installed = JSON.parse(readFileSync(join(repoRoot, "node_modules/aws-cdk/package.json"), "utf8")) as {
      version: string;
    };
    expect(installed.version).toBe(pinned);
  });

  it("refuses a resource prefix with upper-case letters, which no lower-cased SageMaker ARN would match", () => {
    expect(() => new DecisionConsoleStack(new App(), "Upper", { sageMakerNamePrefix: "DC-" })).toThrow(/lower-case/);
  });
});

/** IAM actions of the AWS SDK commands that `server/` (not the local control plane, not tests) sends. */
function consoleSdkActions(): Set<string> {
  const servicePrefix: Record<string, string> = {
    sagemaker: "sagemaker",
    "sagemaker-runtime": "sagemaker",
    codebuild: "codebuild",
    ecr: "ecr",
    s3: "s3",
    cloudwatch: "cloudwatch",
    "cloudwatch-logs": "logs",
    "application-auto-scaling": "application-autoscaling",
  };
  // S3 authorises several operations under one action.
  const s3Action: Record<string, string> = {
    HeadObject: "GetObject",
    CreateMultipartUpload: "PutObject",
    UploadPart: "PutObject",
    CompleteMultipartUpload: "PutObject",
    ListObjectsV2: "ListBucket",
  };
  const actions = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) {
        walk(path);
      } else if (path.endsWith(".ts") && !path.endsWith(".test.ts")) {
        const source = readFileSync(path, "utf8");
        for (const match of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*"@aws-sdk\/client-([a-z0-9-]+)"/g)) {
          const service = servicePrefix[match[2]!];
          if (!service) throw new Error(`${path} imports @aws-sdk/client-${match[2]}: add it to the console policy`);
          for (const name of match[1]!.split(",").map((n) => n.replace(/^\s*type\s+/, "").trim())) {
            const command = name.match(/^(\w+)Command$/)?.[1];
            if (command && source.includes(`new ${name}(`)) {
              actions.add(`${service}:${service === "s3" ? (s3Action[command] ?? command) : command}`);
            }
          }
        }
        if (/new Upload\(/.test(source)) {
          actions.add("s3:PutObject");
          actions.add("s3:AbortMultipartUpload");
        }
      }
    }
  };
  walk(join(repoRoot, "server"));
  return actions;
}

/** Allowed although `server/` sends no command of that name: what AWS checks behind the commands it does send. */
const indirectConsoleActions: Record<string, string> = {
  "iam:PassRole": "CreateModel passes the execution role",
  "cloudwatch:PutMetricAlarm": "PutScalingPolicy (target tracking) creates its alarms as the caller",
  "cloudwatch:DescribeAlarms": "PutScalingPolicy (target tracking) checks its alarms as the caller",
  "cloudwatch:DeleteAlarms": "DeleteScalingPolicy removes the target-tracking alarms",
  "iam:CreateServiceLinkedRole": "the first RegisterScalableTarget for SageMaker creates its service-linked role",
  "sagemaker:AddTags": "CreateModel with Tags needs AddTags on the new model (sagemaker:TaggingAction CreateModel)",
};

describe("console policy", () => {
  const consoleStatements = () => statementsOf("ConsolePolicy");

  it("allows every AWS call server/ makes", () => {
    const allowed = new Set(actionsOf(consoleStatements()));
    const required = consoleSdkActions();
    expect(required.size).toBeGreaterThan(10);
    expect([...required].filter((action) => !allowed.has(action)).sort()).toEqual([]);
  });

  it("allows nothing server/ does not call, except what AWS checks behind those calls", () => {
    const required = consoleSdkActions();
    const extra = actionsOf(consoleStatements()).filter((action) => !required.has(action));
    expect(extra.filter((action) => !(action in indirectConsoleActions))).toEqual([]);
  });

  it("limits SageMaker models, endpoint configs, endpoints, transform jobs and model groups to names with the console's prefix", () => {
    const sageMaker = consoleStatements().filter((s) => list(s.Action).some((a) => a.startsWith("sagemaker:")));
    const arns = sageMaker.flatMap((s) => list(s.Resource).map(render)).filter((r) => r !== "*");
    expect(arns.length).toBeGreaterThan(0);
    for (const arn of arns) {
      expect(arn).toMatch(
        new RegExp(
          `^arn:<AWS::Partition>:sagemaker:<AWS::Region>:<AWS::AccountId>:((model|endpoint-config|endpoint|transform-job|model-package-group)/${PREFIX}\\*|model-package/${PREFIX}\\*/\\*)$`,
        ),
      );
    }
    expect(resourcesOf(consoleStatements(), "sagemaker:CreateEndpoint")).toHaveLength(4);
    expect(resourcesOf(consoleStatements(), "sagemaker:CreateTransformJob")).toContain(
      `arn:<AWS::Partition>:sagemaker:<AWS::Region>:<AWS::AccountId>:transform-job/${PREFIX}*`,
    );
  });

  it("tags only models it creates, only with the console's record keys, and reads only its models' tags", () => {
    const tagging = consoleStatements().filter((s) => list(s.Action).includes("sagemaker:AddTags"));
    expect(tagging).toHaveLength(1);
    expect(list(tagging[0]!.Action)).toEqual(["sagemaker:AddTags"]);
    expect(list(tagging[0]!.Resource).map(render)).toEqual([
      `arn:<AWS::Partition>:sagemaker:<AWS::Region>:<AWS::AccountId>:model/${PREFIX}*`,
    ]);
    expect(tagging[0]!.Condition).toEqual({
      StringEquals: { "sagemaker:TaggingAction": "CreateModel" },
      "ForAllValues:StringEquals": { "aws:TagKeys": Object.values(CONSOLE_MODEL_TAG_KEYS) },
    });
    expect(resourcesOf(consoleStatements(), "sagemaker:ListTags")).toEqual([
      `arn:<AWS::Partition>:sagemaker:<AWS::Region>:<AWS::AccountId>:model/${PREFIX}*`,
    ]);
  });

  it("passes only the execution role, and only to SageMaker", () => {
    const passRole = consoleStatements().filter((s) => list(s.Action).includes("iam:PassRole"));
    expect(passRole).toHaveLength(1);
    expect(list(passRole[0]!.Resource).map(render)).toEqual(["<SageMakerExecutionRole.Arn>"]);
    expect(passRole[0]!.Condition).toEqual({ StringEquals: { "iam:PassedToService": "sagemaker.amazonaws.com" } });
  });

  it("starts and reads only the two build projects and reads only their and the endpoints' logs", () => {
    expect(resourcesOf(consoleStatements(), "codebuild:StartBuild")).toEqual([
      "<ModelPackageProject.Arn>",
      "<ImageBuildProject.Arn>",
    ]);
    const buildLogs = resourcesOf(consoleStatements(), "logs:GetLogEvents");
    expect(buildLogs.length).toBeGreaterThan(0);
    expect(buildLogs.every((arn) => /log-group:\/aws\/codebuild\/decision-console-/.test(arn))).toBe(true);
    const endpointLogs = resourcesOf(consoleStatements(), "logs:FilterLogEvents");
    expect(endpointLogs.length).toBeGreaterThan(0);
    expect(
      endpointLogs.every(
        (arn) =>
          arn.includes(`log-group:/aws/sagemaker/Endpoints/${PREFIX}*`) ||
          arn.includes("log-group:/aws/sagemaker/TransformJobs"),
      ),
    ).toBe(true);
  });

  it("writes only build sources, its endpoints' async requests, batch data and its groups' evaluation reports to the bucket, reads only those and its endpoints' captured decisions and ground truth, lists only its prefixes", () => {
    expect([...new Set(actionsOf(consoleStatements()).filter((action) => action.startsWith("s3:")))].sort()).toEqual([
      "s3:AbortMultipartUpload",
      "s3:GetObject",
      "s3:ListBucket",
      "s3:PutObject",
    ]);
    expect(resourcesOf(consoleStatements(), "s3:PutObject")).toEqual([
      `<ArtifactBucket.Arn>/evaluation-reports/${PREFIX}*`,
      "<ArtifactBucket.Arn>/batch/*",
      "<ArtifactBucket.Arn>/build-sources/*",
      `<ArtifactBucket.Arn>/async/${PREFIX}*/in/*`,
    ]);
    expect(resourcesOf(consoleStatements(), "s3:AbortMultipartUpload")).toEqual([
      "<ArtifactBucket.Arn>/batch/*",
      "<ArtifactBucket.Arn>/build-sources/*",
    ]);
    expect(resourcesOf(consoleStatements(), "s3:GetObject")).toEqual([
      "<ArtifactBucket.Arn>/batch/*",
      `<ArtifactBucket.Arn>/async/${PREFIX}*/out/*`,
      `<ArtifactBucket.Arn>/async/${PREFIX}*/failed/*`,
      `<ArtifactBucket.Arn>/data-capture/${PREFIX}*`,
      `<ArtifactBucket.Arn>/ground-truth/${PREFIX}*`,
    ]);
    expect(
      consoleStatements()
        .filter((s) => list(s.Action).includes("s3:ListBucket"))
        .map((s) => s.Condition),
    ).toEqual([
      { StringLike: { "s3:prefix": ["batch/*"] } },
      { StringLike: { "s3:prefix": ["build-sources/*"] } },
      { StringLike: { "s3:prefix": [`async/${PREFIX}*/out/*`, `async/${PREFIX}*/failed/*`] } },
      { StringLike: { "s3:prefix": [`data-capture/${PREFIX}*`] } },
      { StringLike: { "s3:prefix": [`ground-truth/${PREFIX}*`] } },
    ]);
  });

  it("updates only prefixed endpoints and manages only prefixed and target-tracking alarms", () => {
    expect(resourcesOf(consoleStatements(), "sagemaker:UpdateEndpoint")).toContain(
      `arn:<AWS::Partition>:sagemaker:<AWS::Region>:<AWS::AccountId>:endpoint/${PREFIX}*`,
    );
    for (const action of ["cloudwatch:PutMetricAlarm", "cloudwatch:DescribeAlarms", "cloudwatch:DeleteAlarms"]) {
      expect(resourcesOf(consoleStatements(), action).sort()).toEqual([
        `arn:<AWS::Partition>:cloudwatch:<AWS::Region>:<AWS::AccountId>:alarm:TargetTracking-endpoint/${PREFIX}*`,
        `arn:<AWS::Partition>:cloudwatch:<AWS::Region>:<AWS::AccountId>:alarm:${PREFIX}*`,
      ]);
    }
  });

  it("publishes metrics only in its drift namespace", () => {
    const publishing = consoleStatements().filter((s) => list(s.Action).includes("cloudwatch:PutMetricData"));
    expect(publishing.map((s) => s.Condition)).toEqual([
      { StringEquals: { "cloudwatch:namespace": DRIFT_METRICS.namespace } },
    ]);
  });

  it("changes only SageMaker variant scalable targets that carry the console's tag", () => {
    const changing = consoleStatements().filter((s) =>
      list(s.Action).some(
        (a) => a.startsWith("application-autoscaling:") && !a.startsWith("application-autoscaling:Describe"),
      ),
    );
    expect(changing.length).toBeGreaterThan(0);
    for (const statement of changing) {
      expect(list(statement.Resource).map(render)).toEqual([
        "arn:<AWS::Partition>:application-autoscaling:<AWS::Region>:<AWS::AccountId>:scalable-target/*",
      ]);
      const equals = statement.Condition?.StringEquals ?? {};
      expect(equals["application-autoscaling:service-namespace"]).toBe("sagemaker");
      expect(equals["application-autoscaling:scalable-dimension"]).toBe("sagemaker:variant:DesiredInstanceCount");
      const tagKey = list(statement.Action).includes("application-autoscaling:RegisterScalableTarget")
        ? `aws:RequestTag/${CONSOLE_SCALABLE_TARGET_TAG.key}`
        : `aws:ResourceTag/${CONSOLE_SCALABLE_TARGET_TAG.key}`;
      expect(equals[tagKey]).toBe(CONSOLE_SCALABLE_TARGET_TAG.value);
    }
  });
});

/** Actions AWS authorises only on "*" (no resource type in the Service Authorization Reference), and why we need them. */
const actionsWithoutResourceTypes: Record<string, string> = {
  "ecr:GetAuthorizationToken": "docker login to ECR (execution role pulls, image build pushes)",
  "sagemaker:ListEndpoints": "the endpoints page lists endpoints",
  "sagemaker:ListTransformJobs": "the batch jobs page lists transform jobs",
  "sagemaker:ListModelPackageGroups": "the models page lists model package groups",
  "sagemaker:ListModelPackages": "a group's page lists its versions",
  "cloudwatch:GetMetricData": "endpoint metrics charts",
  "cloudwatch:PutMetricData":
    "the execution role publishes endpoint metrics (AWS's CreateModel role policy); the console its drift metrics",
  "application-autoscaling:DescribeScalableTargets": "Describe* has no resource type",
  "application-autoscaling:DescribeScalingPolicies": "Describe* has no resource type",
  "application-autoscaling:DescribeScalingActivities": "Describe* has no resource type",
};

describe("every IAM policy in the stack", () => {
  it("names its actions exactly: no `*` and no wildcard pattern", () => {
    const wildcards = allowStatements().flatMap(({ owner, statement }) =>
      list(statement.Action)
        .filter((action) => action.includes("*"))
        .map((action) => `${owner}: ${action}`),
    );
    expect(wildcards).toEqual([]);
  });

  it('uses resource "*" only for actions AWS offers no narrower resource for', () => {
    const starred = allowStatements().filter(({ statement }) => list(statement.Resource).includes("*"));
    expect(starred.length).toBeGreaterThan(0);
    for (const { owner, statement } of starred) {
      for (const action of list(statement.Action)) {
        expect(actionsWithoutResourceTypes, `${owner} grants ${action} on "*"`).toHaveProperty([action]);
      }
    }
  });
});

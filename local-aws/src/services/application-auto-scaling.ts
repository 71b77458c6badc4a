import type {
  DeleteScalingPolicyCommandInput,
  DeleteScalingPolicyCommandOutput,
  DeregisterScalableTargetCommandInput,
  DeregisterScalableTargetCommandOutput,
  DescribeScalableTargetsCommandInput,
  DescribeScalableTargetsCommandOutput,
  DescribeScalingActivitiesCommandInput,
  DescribeScalingActivitiesCommandOutput,
  DescribeScalingPoliciesCommandInput,
  DescribeScalingPoliciesCommandOutput,
  PutScalingPolicyCommandInput,
  PutScalingPolicyCommandOutput,
  RegisterScalableTargetCommandInput,
  RegisterScalableTargetCommandOutput,
} from "@aws-sdk/client-application-auto-scaling";
import type { AlarmEngine } from "../alarms/alarm-engine.ts";
import { readActivities, scaleVariantRecorded } from "../autoscaling/scaling-activities.ts";
import {
  type PolicyDoc,
  readPolicies,
  readPolicy,
  readTarget,
  type TargetDoc,
  type TargetKey,
} from "../autoscaling/scaling-store.ts";
import { validateTargetPermissions } from "../autoscaling/target-permissions.ts";
import { createTargetTrackingAlarms, deleteTargetTrackingAlarms } from "../autoscaling/target-tracking-alarms.ts";
import type { Db } from "../database.ts";
import type { EndpointRunner } from "../endpoints/endpoint-runner.ts";
import type { RequestAuthorizer } from "../iam/request-authorizer.ts";
import { scalableTargetArn } from "../iam/requests/application-auto-scaling.ts";
import type { ScalableTargetFacts } from "../iam/requests/facts.ts";
import type { SageMakerStore } from "../sagemaker-store.ts";
import { AwsError } from "../wire/aws-error.ts";
import { applicationAutoScalingInputShapes } from "../wire/generated/application-auto-scaling.ts";
import { withInputShapes } from "../wire/input-shapes.ts";
import type { JsonService } from "../wire/json-rpc.ts";
import { type AwsRequest, LOCAL_ACCOUNT_ID } from "../wire/request.ts";
import { servingOnly } from "../wire/served-members.ts";
import { asJsonOperations, type TypedOperation } from "../wire/typed-operations.ts";
import {
  checkActivitiesFilter,
  checkScalingPolicy,
  registeredCapacity,
  resultsPage,
  variantOfTarget,
} from "./application-auto-scaling-rules.ts";
import { applicationAutoScalingServedMembers } from "./application-auto-scaling-served.ts";

/** The Application Auto Scaling operations this module serves, each typed with the SDK's own input and output. */
type ScalingOperations = {
  RegisterScalableTarget: TypedOperation<RegisterScalableTargetCommandInput, RegisterScalableTargetCommandOutput>;
  DescribeScalableTargets: TypedOperation<DescribeScalableTargetsCommandInput, DescribeScalableTargetsCommandOutput>;
  DeregisterScalableTarget: TypedOperation<DeregisterScalableTargetCommandInput, DeregisterScalableTargetCommandOutput>;
  PutScalingPolicy: TypedOperation<PutScalingPolicyCommandInput, PutScalingPolicyCommandOutput>;
  DescribeScalingActivities: TypedOperation<
    DescribeScalingActivitiesCommandInput,
    DescribeScalingActivitiesCommandOutput
  >;
  DescribeScalingPolicies: TypedOperation<DescribeScalingPoliciesCommandInput, DescribeScalingPoliciesCommandOutput>;
  DeleteScalingPolicy: TypedOperation<DeleteScalingPolicyCommandInput, DeleteScalingPolicyCommandOutput>;
};

/**
 * The service-linked role Application Auto Scaling uses for SageMaker variants when RegisterScalableTarget names no
 * RoleARN ("Service-linked roles for Application Auto Scaling"); DescribeScalableTargets always answers a RoleARN.
 */
const sageMakerScalingRoleArn = (account: string) =>
  `arn:aws:iam::${account}:role/aws-service-role/sagemaker.application-autoscaling.amazonaws.com/AWSServiceRoleForApplicationAutoScaling_SageMakerEndpoint`;

function key(input: Record<string, unknown>): TargetKey {
  // The input was validated against the operation's shape, enums included.
  const k = [String(input.ServiceNamespace), String(input.ResourceId), String(input.ScalableDimension)] as TargetKey;
  variantOfTarget(...k);
  return k;
}

/** The target's key, once the caller is known to hold the permissions on its variant's endpoint. */
function permittedKey(
  iam: RequestAuthorizer,
  store: SageMakerStore,
  input: Record<string, unknown>,
  request: AwsRequest,
) {
  const k = key(input);
  validateTargetPermissions(iam, store, request, variantOfTarget(...k).endpoint);
  return k;
}

/** A registered target's ARN and tags, for IAM decisions on it. */
export function scalableTargetFacts(
  db: Db,
  namespace: string,
  resourceId: string,
  dimension: string,
): ScalableTargetFacts | undefined {
  const doc = readTarget(db, [namespace, resourceId, dimension] as TargetKey);
  return doc ? { arn: doc.ScalableTargetARN, tags: doc.Tags ?? {} } : undefined;
}

/** The variants of an endpoint registered as scalable targets. */
export function scaledVariants(db: Db, endpoint: string): string[] {
  const rows = db
    .prepare("SELECT resource_id FROM aas_targets WHERE namespace = 'sagemaker' AND resource_id LIKE ?")
    .all(`endpoint/${endpoint}/variant/%`) as { resource_id: string }[];
  return rows.flatMap((row) => {
    const match = /^endpoint\/([^/]+)\/variant\/([^/]+)$/.exec(row.resource_id);
    return match && match[1] === endpoint ? [match[2] as string] : [];
  });
}

function notRegistered([namespace, resourceId, dimension]: TargetKey): AwsError {
  return new AwsError(
    "ObjectNotFoundException",
    `No scalable target registered for service namespace: ${namespace}, resource ID: ${resourceId}, scalable dimension: ${dimension}`,
  );
}

/**
 * Application Auto Scaling (AWS JSON 1.1) for endpoint variants: targets and policies are stored; registering a
 * target whose bounds exclude the current instance count moves the count into them, as the service does. A
 * target-tracking policy on a customized metric gets its CloudWatch alarms (target-tracking-alarms.ts); policies act
 * when their alarms do (autoscaling/policy-actions.ts). Every change of a variant's count the service makes is a
 * scaling activity (autoscaling/scaling-activities.ts), listed newest first by DescribeScalingActivities. A call that
 * changes a target first validates the caller's permissions on the variant's endpoint (autoscaling/target-permissions.ts).
 */
export function applicationAutoScalingService(
  db: Db,
  store: SageMakerStore,
  runner: EndpointRunner,
  alarms: AlarmEngine,
  clock: () => number,
  iam: RequestAuthorizer,
): JsonService {
  const target = (k: TargetKey) => readTarget(db, k);
  const permitted = (input: Record<string, unknown>, request: AwsRequest) => permittedKey(iam, store, input, request);
  return {
    target: "AnyScaleFrontendService",
    signingName: "application-autoscaling",
    version: "1.1",
    operations: withInputShapes(
      "AnyScaleFrontendService",
      applicationAutoScalingInputShapes,
      servingOnly(
        "AnyScaleFrontendService",
        applicationAutoScalingServedMembers,
        asJsonOperations({
          RegisterScalableTarget(input, request) {
            const { region } = request;
            const k = permitted(input, request);
            const [, resourceId, dimension] = k;
            const names = variantOfTarget(...k);
            const previous = target(k);
            const endpoint = store.endpoint(names.endpoint);
            const asynchronous = Boolean(endpoint && store.endpointConfig(endpoint.configName)?.AsyncInferenceConfig);
            const { min, max } = registeredCapacity(input, previous, asynchronous);
            const variant = endpoint?.variants.find((v) => v.VariantName === names.variant);
            if (!endpoint || !variant) {
              throw new AwsError("ValidationException", `The endpoint variant ${resourceId} does not exist.`);
            }
            const doc: TargetDoc = {
              ServiceNamespace: "sagemaker",
              ResourceId: resourceId,
              ScalableDimension: dimension,
              MinCapacity: min,
              MaxCapacity: max,
              RoleARN: input.RoleARN ?? previous?.RoleARN ?? sageMakerScalingRoleArn(LOCAL_ACCOUNT_ID),
              SuspendedState: input.SuspendedState ?? previous?.SuspendedState,
              CreationTime: previous?.CreationTime ?? Date.now() / 1000,
              ScalableTargetARN: previous?.ScalableTargetARN ?? scalableTargetArn(region, LOCAL_ACCOUNT_ID, ...k),
              // Tags given with a registration are added to the target's (as TagResource would add them).
              Tags: { ...(previous?.Tags ?? {}), ...((input.Tags as Record<string, string> | undefined) ?? {}) },
            };
            db.prepare(
              "INSERT INTO aas_targets (namespace, resource_id, dimension, doc) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET doc = excluded.doc",
            ).run(...k, JSON.stringify(doc));
            const clamped = Math.min(Math.max(variant.DesiredInstanceCount, min), max);
            if (endpoint.status === "InService" && clamped !== variant.DesiredInstanceCount) {
              const cause =
                variant.DesiredInstanceCount < min
                  ? `minimum capacity was set to ${min}`
                  : `maximum capacity was set to ${max}`;
              void scaleVariantRecorded(
                { db, store, runner, clock },
                k,
                endpoint.name,
                variant.VariantName,
                clamped,
                cause,
              );
            }
            return { ScalableTargetARN: doc.ScalableTargetARN };
          },
          DescribeScalableTargets(input) {
            const namespace = input.ServiceNamespace;
            const ids = input.ResourceIds;
            const rows = db
              .prepare("SELECT doc FROM aas_targets WHERE namespace = ? ORDER BY resource_id")
              .all(namespace) as { doc: string }[];
            const targets = rows
              .map((row) => JSON.parse(row.doc) as TargetDoc)
              .filter((t) => !ids || ids.includes(t.ResourceId))
              .filter((t) => input.ScalableDimension === undefined || t.ScalableDimension === input.ScalableDimension);
            const { slice, nextToken } = resultsPage(targets, input, 50);
            // Tags are not part of a described target (ListTagsForResource returns them).
            return { ScalableTargets: slice.map(({ Tags: _tags, ...described }) => described), NextToken: nextToken };
          },
          DeregisterScalableTarget(input, request) {
            const k = permitted(input, request);
            if (!target(k)) throw notRegistered(k);
            for (const policy of readPolicies(db, k)) deleteTargetTrackingAlarms(alarms, policy);
            db.prepare("DELETE FROM aas_targets WHERE namespace = ? AND resource_id = ? AND dimension = ?").run(...k);
            db.prepare("DELETE FROM aas_policies WHERE namespace = ? AND resource_id = ? AND dimension = ?").run(...k);
            return {};
          },
          PutScalingPolicy(input, request) {
            const { region } = request;
            const k = permitted(input, request);
            if (!target(k)) throw notRegistered(k);
            const name = input.PolicyName;
            checkScalingPolicy(input);
            const policyType = input.PolicyType ?? "StepScaling";
            const previous = readPolicy(db, k, name);
            const doc: PolicyDoc = {
              PolicyARN:
                previous?.PolicyARN ??
                `arn:aws:autoscaling:${region}:${LOCAL_ACCOUNT_ID}:scalingPolicy:${crypto.randomUUID()}:resource/sagemaker/${k[1]}:policyName/${name}`,
              PolicyName: name,
              ServiceNamespace: k[0],
              ResourceId: k[1],
              ScalableDimension: k[2],
              PolicyType: policyType,
              TargetTrackingScalingPolicyConfiguration:
                policyType === "TargetTrackingScaling" ? input.TargetTrackingScalingPolicyConfiguration : undefined,
              StepScalingPolicyConfiguration:
                policyType === "StepScaling" ? input.StepScalingPolicyConfiguration : undefined,
              Alarms: [],
              CreationTime: previous?.CreationTime ?? Date.now() / 1000,
            };
            deleteTargetTrackingAlarms(alarms, previous);
            doc.Alarms = createTargetTrackingAlarms(alarms, doc, region, LOCAL_ACCOUNT_ID);
            db.prepare(
              "INSERT INTO aas_policies (namespace, resource_id, dimension, name, doc) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET doc = excluded.doc",
            ).run(...k, name, JSON.stringify(doc));
            return { PolicyARN: doc.PolicyARN, Alarms: doc.Alarms };
          },
          DescribeScalingActivities(input) {
            const resource = input.ResourceId;
            const dimension = input.ScalableDimension;
            checkActivitiesFilter(resource, dimension);
            const activities = readActivities(db, input.ServiceNamespace, resource, dimension);
            const { slice, nextToken } = resultsPage(activities, input, 50);
            return { ScalingActivities: slice, NextToken: nextToken };
          },
          DescribeScalingPolicies(input) {
            const namespace = input.ServiceNamespace;
            const names = input.PolicyNames;
            const rows = db
              .prepare("SELECT doc FROM aas_policies WHERE namespace = ? ORDER BY name")
              .all(namespace) as {
              doc: string;
            }[];
            const policies = rows
              .map((row) => JSON.parse(row.doc) as PolicyDoc)
              .filter((p) => input.ResourceId === undefined || p.ResourceId === input.ResourceId)
              .filter((p) => input.ScalableDimension === undefined || p.ScalableDimension === input.ScalableDimension)
              .filter((p) => !names || names.includes(p.PolicyName));
            const { slice, nextToken } = resultsPage(policies, input, 10);
            return { ScalingPolicies: slice, NextToken: nextToken };
          },
          DeleteScalingPolicy(input, request) {
            const k = permitted(input, request);
            const name = input.PolicyName;
            const policy = readPolicy(db, k, name);
            const result = db
              .prepare(
                "DELETE FROM aas_policies WHERE namespace = ? AND resource_id = ? AND dimension = ? AND name = ?",
              )
              .run(...k, name);
            deleteTargetTrackingAlarms(alarms, policy);
            if (result.changes === 0) {
              throw new AwsError(
                "ObjectNotFoundException",
                `No scaling policy found for service namespace: ${k[0]}, resource ID: ${k[1]}, scalable dimension: ${k[2]}, policy name: ${name}`,
              );
            }
            return {};
          },
        } satisfies ScalingOperations),
      ),
    ),
  };
}

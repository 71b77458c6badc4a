import type { AlarmEngine } from "../alarms/alarm-engine.ts";
import type { Db } from "../database.ts";
import type { EndpointRunner } from "../endpoints/endpoint-runner.ts";
import type { AuthorizationQuery } from "../iam/evaluate.ts";
import {
  applicationAutoScalingAuthorization,
  variantTargetServiceQueries,
} from "../iam/requests/application-auto-scaling.ts";
import type { RequestFacts } from "../iam/requests/facts.ts";
import type { SageMakerStore } from "../sagemaker-store.ts";
import { variantOfTarget } from "../services/application-auto-scaling-rules.ts";
import { scaleVariantRecorded } from "./scaling-activities.ts";
import { adjustedCapacity, aggregated, stepFor, trackedCapacity } from "./scaling-adjustment.ts";
import { type PolicyDoc, readPolicies, readTarget, type TargetKey } from "./scaling-store.ts";
import { isScaleInAlarm } from "./target-tracking-alarms.ts";

const SCALING_POLICY_ARN = /^arn:aws:autoscaling:[^:]+:\d{12}:scalingPolicy:[^:]+:resource\/.+:policyName\/.+$/;
/** StepScalingPolicyConfiguration.Cooldown and target tracking's cooldowns default to 300 seconds. */
const DEFAULT_COOLDOWN_S = 300;

interface Activity {
  at: number;
  direction: "out" | "in";
  /** The capacity before the activity (a scale-out within its cooldown counts from there). */
  from: number;
}

export interface PolicyActionsDeps {
  db: Db;
  store: SageMakerStore;
  runner: EndpointRunner;
  alarms: AlarmEngine;
  /** Epoch milliseconds, the alarm engine's clock (tests advance both together). */
  clock: () => number;
  /** What local IAM knows of a region's resources, to say what acting on a policy takes. */
  facts: (region: string) => RequestFacts;
}

/** The newest datapoints of the alarm's last evaluation, newest first (none after a SetAlarmState). */
function evaluatedValues(alarms: AlarmEngine, alarmName: string): number[] {
  const data = alarms.get(alarmName)?.stateReasonData;
  try {
    const parsed = JSON.parse(data ?? "{}") as { evaluatedDatapoints?: { value: number }[] };
    return (parsed.evaluatedDatapoints ?? []).map((point) => point.value);
  } catch {
    return [];
  }
}

const log = (msg: string, fields: Record<string, unknown>) =>
  console.log(JSON.stringify({ level: "info", msg, ...fields }));

/**
 * Application Auto Scaling acting on CloudWatch alarms: a scaling policy's ARN as an alarm action runs the policy
 * while its alarm is in ALARM (once per alarm period, as CloudWatch re-invokes Auto Scaling actions). A step policy
 * adjusts by the step that holds the breach (the aggregated datapoints minus the threshold); a target-tracking policy
 * scales out on its AlarmHigh and in on its AlarmLow, proportionally to the metric. The new count is set through the
 * endpoint runner (adapter processes stop at 0 and start again; an asynchronous queue waits meanwhile) and recorded
 * as a scaling activity (scaling-activities.ts).
 *
 * Cooldowns (the policy's own): within a scale-out's cooldown, a further scale-out happens only when it asks for
 * more than that scale-out gave, counted from the capacity before it; within any activity's cooldown no scale-in
 * happens; a scale-out is never held back by a scale-in. An endpoint that is not InService (being updated) is left
 * alone, and the next period tries again. Suspended dynamic scaling in either direction is honoured. Cooldowns are
 * kept in memory: a restart of the control plane forgets them.
 */
export function registerScalingPolicyActions(deps: PolicyActionsDeps): () => void {
  const activities = new Map<string, Activity>();
  const { db, store, alarms, clock } = deps;

  function policyOf(arn: string): PolicyDoc | undefined {
    return readPolicies(db).find((policy) => policy.PolicyARN === arn);
  }

  function desiredBy(policy: PolicyDoc, alarmName: string, current: number, min: number, max: number) {
    const values = evaluatedValues(alarms, alarmName);
    const threshold = alarms.get(alarmName)?.definition.Threshold;
    if (values.length === 0 || threshold === undefined) return undefined;
    const step = policy.StepScalingPolicyConfiguration;
    if (step) {
      const adjustment = stepFor(
        step.StepAdjustments ?? [],
        aggregated(values, step.MetricAggregationType) - threshold,
      );
      if (!adjustment) return undefined;
      const cooldown = (step.Cooldown ?? DEFAULT_COOLDOWN_S) * 1000;
      return {
        desired: (from: number) => adjustedCapacity(step, adjustment.ScalingAdjustment, { current: from, min, max }),
        outCooldown: cooldown,
        inCooldown: cooldown,
        allowed: (wanted: number) => wanted !== current,
      };
    }
    const tracking = policy.TargetTrackingScalingPolicyConfiguration;
    if (!tracking) return undefined;
    const scaleIn = isScaleInAlarm(alarmName);
    return {
      desired: (from: number) => trackedCapacity(values[0] ?? 0, tracking.TargetValue, { current: from, min, max }),
      outCooldown: (tracking.ScaleOutCooldown ?? DEFAULT_COOLDOWN_S) * 1000,
      inCooldown: (tracking.ScaleInCooldown ?? DEFAULT_COOLDOWN_S) * 1000,
      allowed: (wanted: number) => (scaleIn ? wanted < current && !tracking.DisableScaleIn : wanted > current),
    };
  }

  function run(policyArn: string, alarmName: string) {
    const policy = policyOf(policyArn);
    if (!policy) return;
    const key: TargetKey = [policy.ServiceNamespace, policy.ResourceId, policy.ScalableDimension];
    const target = readTarget(db, key);
    const names = variantOfTarget(...key);
    const endpoint = store.endpoint(names.endpoint);
    const variant = endpoint?.variants.find((v) => v.VariantName === names.variant);
    if (!target || !endpoint || !variant || endpoint.status !== "InService") return;
    const current = variant.DesiredInstanceCount;
    const rule = desiredBy(policy, alarmName, current, target.MinCapacity, target.MaxCapacity);
    if (!rule) return;
    const now = clock();
    const last = activities.get(policy.ResourceId);
    let wanted = rule.desired(current);
    if (!rule.allowed(wanted)) return;
    const direction = wanted > current ? "out" : "in";
    if (direction === "out" && target.SuspendedState?.DynamicScalingOutSuspended) return;
    if (direction === "in" && target.SuspendedState?.DynamicScalingInSuspended) return;
    let from = current;
    if (last && now - last.at < (direction === "out" ? rule.outCooldown : rule.inCooldown)) {
      if (direction === "in") return;
      if (last.direction === "out") {
        from = last.from;
        wanted = rule.desired(from);
        if (wanted <= current) return;
      }
    }
    activities.set(policy.ResourceId, { at: now, direction, from });
    log("local scaling activity", { policy: policy.PolicyName, alarm: alarmName, from: current, to: wanted });
    const cause = `monitor alarm ${alarmName} in state ALARM triggered policy ${policy.PolicyName}`;
    void scaleVariantRecorded(deps, key, endpoint.name, variant.VariantName, wanted, cause);
  }

  /**
   * Running a policy changes its target's capacity: what changing the policy takes its caller, PutScalingPolicy on
   * the target with Application Auto Scaling's check of the caller's SageMaker permissions on the variant.
   */
  function permissionsFor(policyArn: string, region: string): AuthorizationQuery[] {
    const policy = policyOf(policyArn);
    if (!policy) return [];
    const facts = deps.facts(region);
    const { ServiceNamespace, ResourceId, ScalableDimension, PolicyName } = policy;
    const endpoint = variantOfTarget(ServiceNamespace, ResourceId, ScalableDimension).endpoint;
    return [
      ...applicationAutoScalingAuthorization.PutScalingPolicy!(
        { ServiceNamespace, ResourceId, ScalableDimension, PolicyName },
        facts,
      ),
      ...variantTargetServiceQueries(facts, endpoint, store.endpoint(endpoint)?.configName),
    ];
  }

  return alarms.actions.register({
    matches: (arn) => SCALING_POLICY_ARN.test(arn),
    repeatWhileInState: true,
    permissionsFor,
    handle(event) {
      if (event.state === "ALARM") run(event.actionArn, event.alarmName);
    },
  });
}

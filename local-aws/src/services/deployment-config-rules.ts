import type { CapacitySize, DeploymentConfig, TrafficRoutingConfig } from "@aws-sdk/client-sagemaker";
import { instancesNamed } from "../endpoints/deployment-schedule.ts";
import type { EndpointRecord, ProductionVariantDoc } from "../sagemaker-store.ts";
import { validation } from "../wire/aws-error.ts";

/**
 * UpdateEndpoint's rules that the API reference and the deployment-guardrails guide state in prose: one update
 * policy, the size each strategy allows, the same variant names, no rolling deployment of several variants, no
 * update of an endpoint that is not InService. The DeploymentConfig shape is generated from the service model
 * (../wire/generated/sagemaker.ts).
 */

/**
 * The share of "the variant's total instance count" each size may name, as the API reference states it:
 * TrafficRoutingConfig.CanarySize "must be less than or equal to 50%", LinearStepSize "must be 10-50%",
 * RollingUpdatePolicy.MaximumBatchSize "must be between 5% to 50%". A size must also name one instance or more.
 */
const SIZE_LIMITS = {
  CanarySize: { least: 0, most: 50, wording: "less than or equal to 50%" },
  LinearStepSize: { least: 10, most: 50, wording: "between 10% and 50%" },
  MaximumBatchSize: { least: 5, most: 50, wording: "between 5% and 50%" },
} as const;

function checkSize(field: keyof typeof SIZE_LIMITS, size: CapacitySize, total: number): string | null {
  const { least, most, wording } = SIZE_LIMITS[field];
  const value = size.Value ?? 0;
  const named = size.Type === "CAPACITY_PERCENT" ? `${value}%` : `${value} instance${value === 1 ? "" : "s"}`;
  // In whole numbers: a count of `value` instances is value * 100 / total percent of the fleet.
  const [share, scale] = size.Type === "CAPACITY_PERCENT" ? [value, 1] : [value * 100, total];
  if (share > most * scale || share < least * scale) {
    return `${field} (${named}) must be ${wording} of the variant's total instance count (${total}).`;
  }
  if (instancesNamed(size, total) < 1) {
    return `${field} (${named}) of the variant's total instance count (${total}) is less than one instance.`;
  }
  return null;
}

/** RollbackMaximumBatchSize brings the old fleet back; it cannot name more than the whole fleet. */
function checkRollbackSize(size: CapacitySize, total: number): string | null {
  const value = size.Value ?? 0;
  const beyond = size.Type === "CAPACITY_PERCENT" ? value > 100 : value > total;
  return beyond ? `RollbackMaximumBatchSize must not exceed the variant's total instance count (${total}).` : null;
}

function checkRouting(routing: TrafficRoutingConfig, total: number): void {
  const sizes = { CANARY: "CanarySize", LINEAR: "LinearStepSize" } as const;
  for (const [type, field] of Object.entries(sizes)) {
    const given = routing[field as keyof typeof routing] !== undefined;
    if (routing.Type === type && !given) {
      throw validation(`${field} must be specified when the TrafficRoutingConfiguration Type is ${type}.`);
    }
    if (routing.Type !== type && given) {
      throw validation(`${field} can be specified only when the TrafficRoutingConfiguration Type is ${type}.`);
    }
  }
  const problem =
    routing.Type === "CANARY" && routing.CanarySize
      ? checkSize("CanarySize", routing.CanarySize, total)
      : routing.Type === "LINEAR" && routing.LinearStepSize
        ? checkSize("LinearStepSize", routing.LinearStepSize, total)
        : null;
  if (problem) throw validation(problem);
}

function checkTimeout(timeout: number | undefined, waits: number): void {
  if (timeout !== undefined && timeout <= waits) {
    throw validation(
      `MaximumExecutionTimeoutInSeconds (${timeout}) must be larger than the total waiting time specified in TerminationWaitInSeconds and WaitIntervalInSeconds (${waits} s).`,
    );
  }
}

/** What UpdateEndpoint checks once its input has the right shape; `instanceCounts` are the new fleet's per variant. */
export function checkUpdateEndpoint(args: {
  arn: string;
  endpoint: EndpointRecord;
  currentVariants: ProductionVariantDoc[] | undefined;
  newVariants: ProductionVariantDoc[];
  instanceCounts: Map<string, number>;
  deploymentConfig: DeploymentConfig | undefined;
  missingAlarms: string[];
}): void {
  const { arn, endpoint, deploymentConfig: config } = args;
  if (endpoint.status === "Failed") {
    throw validation(`Cannot update endpoint "${arn}" in Failed status; delete it and create it again.`);
  }
  if (endpoint.status !== "InService") throw validation(`Cannot update in-progress endpoint "${arn}".`);
  if (!config) return;
  const blueGreen = config.BlueGreenUpdatePolicy;
  const rolling = config.RollingUpdatePolicy;
  if (blueGreen && rolling) {
    throw validation("Only one of BlueGreenUpdatePolicy and RollingUpdatePolicy can be specified in DeploymentConfig.");
  }
  const names = (variants: ProductionVariantDoc[] = []) =>
    variants
      .map((v) => v.VariantName.toLowerCase())
      .sort()
      .join(",");
  if (names(args.currentVariants) !== names(args.newVariants)) {
    throw validation(
      "For a blue/green or rolling deployment the new endpoint configuration must have the same production variant names as the endpoint's current configuration.",
    );
  }
  if (rolling && args.newVariants.length > 1) {
    throw validation("Rolling deployments are not supported for endpoints with multiple production variants.");
  }
  for (const [variant, total] of args.instanceCounts) {
    if (blueGreen?.TrafficRoutingConfiguration) checkRouting(blueGreen.TrafficRoutingConfiguration, total);
    if (rolling?.MaximumBatchSize) {
      const problem =
        checkSize("MaximumBatchSize", rolling.MaximumBatchSize, total) ??
        (rolling.RollbackMaximumBatchSize ? checkRollbackSize(rolling.RollbackMaximumBatchSize, total) : null);
      if (problem) throw validation(`${problem} (variant ${variant})`);
    }
  }
  if (blueGreen) {
    checkTimeout(
      blueGreen.MaximumExecutionTimeoutInSeconds,
      (blueGreen.TerminationWaitInSeconds ?? 0) + (blueGreen.TrafficRoutingConfiguration?.WaitIntervalInSeconds ?? 0),
    );
  }
  if (rolling) checkTimeout(rolling.MaximumExecutionTimeoutInSeconds, rolling.WaitIntervalInSeconds ?? 0);
  if (args.missingAlarms.length > 0) {
    throw validation(
      `The CloudWatch alarm(s) [${args.missingAlarms.join(", ")}] of AutoRollbackConfiguration do not exist.`,
    );
  }
}

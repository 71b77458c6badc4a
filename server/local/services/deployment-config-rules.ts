import {
  capacityProblem,
  type DeploymentConfig,
  rollbackBatchProblem,
  type TrafficRoutingConfig,
} from "../../../contract/endpoints/deployment-plan.ts";
import type { EndpointRecord, ProductionVariantDoc } from "../sagemaker-store.ts";
import { validation } from "../wire/aws-error.ts";

/**
 * UpdateEndpoint's rules that the API reference and the deployment-guardrails guide state in prose: one update
 * policy, the size each strategy allows, the same variant names, no rolling deployment of several variants, no
 * update of an endpoint that is not InService. The DeploymentConfig shape is generated from the service model
 * (../wire/generated/sagemaker.ts).
 */

function checkRouting(routing: TrafficRoutingConfig, total: number): void {
  const sizes = { CANARY: "CanarySize", LINEAR: "LinearStepSize" } as const;
  for (const [type, field] of Object.entries(sizes)) {
    const given = routing[field] !== undefined;
    if (routing.Type === type && !given) {
      throw validation(`${field} must be specified when the TrafficRoutingConfiguration Type is ${type}.`);
    }
    if (routing.Type !== type && given) {
      throw validation(`${field} can be specified only when the TrafficRoutingConfiguration Type is ${type}.`);
    }
  }
  const problem =
    routing.Type === "CANARY" && routing.CanarySize
      ? capacityProblem("canary", routing.CanarySize, total)
      : routing.Type === "LINEAR" && routing.LinearStepSize
        ? capacityProblem("linear", routing.LinearStepSize, total)
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
    if (blueGreen) checkRouting(blueGreen.TrafficRoutingConfiguration, total);
    if (rolling) {
      const problem =
        capacityProblem("rolling", rolling.MaximumBatchSize, total) ??
        (rolling.RollbackMaximumBatchSize ? rollbackBatchProblem(rolling.RollbackMaximumBatchSize, total) : null);
      if (problem) throw validation(`${problem} (variant ${variant})`);
    }
  }
  if (blueGreen) {
    checkTimeout(
      blueGreen.MaximumExecutionTimeoutInSeconds,
      (blueGreen.TerminationWaitInSeconds ?? 0) + blueGreen.TrafficRoutingConfiguration.WaitIntervalInSeconds,
    );
  }
  if (rolling) checkTimeout(rolling.MaximumExecutionTimeoutInSeconds, rolling.WaitIntervalInSeconds);
  if (args.missingAlarms.length > 0) {
    throw validation(
      `The CloudWatch alarm(s) [${args.missingAlarms.join(", ")}] of AutoRollbackConfiguration do not exist.`,
    );
  }
}

import { setTimeout as delay } from "node:timers/promises";
import type { DeploymentConfig } from "@aws-sdk/client-sagemaker";
import type { AlarmEngine } from "../alarms/alarm-engine.ts";
import type { LogStore } from "../log-store.ts";
import type {
  EndpointDeployment,
  PendingVariantState,
  ProductionVariantDoc,
  SageMakerStore,
  VariantState,
  VariantStatusEntry,
} from "../sagemaker-store.ts";
import type { OnTheWire } from "../wire/typed-operations.ts";
import { deploymentSchedule, type TrafficShift } from "./deployment-schedule.ts";
import { type EndpointRunner, endpointLogGroup, failureReasonOf } from "./endpoint-runner.ts";

/** An accepted UpdateEndpoint: from the serving configuration to the new one, with the new fleet's instance counts. */
export interface DeploymentRequest {
  endpoint: string;
  fromConfig: string;
  toConfig: string;
  deploymentConfig: OnTheWire<DeploymentConfig> | undefined;
  counts: Map<string, number>;
}

/** Why a deployment stops early: an alarm, the execution timeout, or the control plane closing. */
type Stop =
  | { kind: "alarm"; alarm: string; reason: string }
  | { kind: "timeout"; seconds: number }
  | { kind: "closed" };

class Interrupted extends Error {
  constructor(readonly stop: Stop) {
    super(stop.kind);
  }
}

/**
 * Watches the deployment's rollback alarms: any of them in ALARM, now or on a later transition (an evaluation or
 * SetAlarmState), trips the watch.
 */
class AlarmWatch {
  tripped: Stop | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly alarms: AlarmEngine,
    private readonly names: readonly string[],
    private readonly onTrip: () => void,
  ) {}

  start(): void {
    if (this.names.length === 0 || this.unsubscribe) return;
    this.unsubscribe = this.alarms.onTransition(({ alarm }) => {
      if (alarm.state === "ALARM" && this.names.includes(alarm.definition.AlarmName)) {
        this.trip(alarm.definition.AlarmName, alarm.stateReason);
      }
    });
    for (const name of this.names) {
      const alarm = this.alarms.get(name);
      if (alarm?.state === "ALARM") this.trip(name, alarm.stateReason);
    }
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private trip(alarm: string, reason: string) {
    if (this.tripped) return;
    this.tripped = { kind: "alarm", alarm, reason };
    this.onTrip();
  }
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

/**
 * Local SageMaker's UpdateEndpoint: the new configuration runs as a second fleet of real adapter processes beside
 * the serving one, and invocations move to it by the deployment's schedule (deployment-schedule.ts):
 * blue/green all at once, canary or linear steps, each followed by its baking period, or rolling batches. A rollback
 * alarm in ALARM during the shift or a baking period, or the execution timeout, moves all traffic back to the old
 * fleet at once (a rolling deployment brings its instances back in RollbackMaximumBatchSize batches) and stops the
 * new fleet; the endpoint is InService again on its old configuration with the reason as FailureReason.
 * Otherwise, after TerminationWaitInSeconds, the old fleet is drained (every invocation it took is answered) and
 * stopped. DescribeEndpoint shows the new fleet in PendingDeploymentSummary, each stage in its VariantStatus.
 */
export class EndpointDeployments {
  private readonly closing = new AbortController();

  constructor(
    private readonly store: SageMakerStore,
    private readonly runner: EndpointRunner,
    private readonly alarms: AlarmEngine,
    private readonly logs: LogStore,
  ) {}

  start(request: DeploymentRequest): Promise<void> {
    return this.runner.deploy(request.endpoint, () => this.run(request));
  }

  /** Stops waiting deployments (the control plane is closing); they are rolled back at the next start. */
  close(): void {
    this.closing.abort();
  }

  private note(endpoint: string, line: string) {
    this.logs.append(endpointLogGroup(endpoint), "local-control-plane", line);
  }

  private setPending(
    request: DeploymentRequest,
    variants: PendingVariantState[],
    shadows: PendingVariantState[],
    startTime: number,
  ) {
    const record = this.store.endpoint(request.endpoint);
    if (!record || this.closing.signal.aborted) return;
    const deployment: EndpointDeployment = {
      lastDeploymentConfig: request.deploymentConfig,
      pending: {
        EndpointConfigName: request.toConfig,
        StartTime: startTime,
        ProductionVariants: variants,
        ShadowProductionVariants: shadows.length > 0 ? shadows : undefined,
      },
    };
    this.store.updateEndpoint(request.endpoint, { deployment });
  }

  private async run(request: DeploymentRequest): Promise<void> {
    const { endpoint, deploymentConfig } = request;
    const startTime = Date.now() / 1000;
    const stopper = new AbortController();
    const abortOnClose = () => stopper.abort();
    this.closing.signal.addEventListener("abort", abortOnClose);
    let stopped: Stop | undefined;
    const stopWith = (stop: Stop) => {
      stopped ??= stop;
      stopper.abort();
    };
    const timeout =
      deploymentConfig?.BlueGreenUpdatePolicy?.MaximumExecutionTimeoutInSeconds ??
      deploymentConfig?.RollingUpdatePolicy?.MaximumExecutionTimeoutInSeconds;
    const deadline =
      timeout === undefined
        ? undefined
        : setTimeout(() => stopWith({ kind: "timeout", seconds: timeout }), timeout * 1000);
    const watch = new AlarmWatch(
      this.alarms,
      (deploymentConfig?.AutoRollbackConfiguration?.Alarms ?? []).flatMap((a) => (a.AlarmName ? [a.AlarmName] : [])),
      () => stopWith(watch.tripped as Stop),
    );
    const config = this.store.endpointConfig(request.toConfig);
    const pendingOf = (v: ProductionVariantDoc): PendingVariantState => ({
      VariantName: v.VariantName,
      ModelName: v.ModelName,
      InstanceType: v.InstanceType,
      CurrentWeight: 0,
      DesiredWeight: v.InitialVariantWeight ?? 1,
      CurrentInstanceCount: 0,
      DesiredInstanceCount: request.counts.get(v.VariantName) ?? v.InitialInstanceCount ?? 1,
      DeployedImages: [],
      VariantStatus: [],
    });
    const variants = (config?.ProductionVariants ?? []).map(pendingOf);
    const shadows = (config?.ShadowProductionVariants ?? []).map(pendingOf);
    const stage = (status: VariantStatusEntry["Status"], message: string) => {
      for (const variant of [...variants, ...shadows])
        variant.VariantStatus.push({ Status: status, StatusMessage: message, StartTime: Date.now() / 1000 });
      this.setPending(request, variants, shadows, startTime);
      this.note(endpoint, `UpdateEndpoint to ${request.toConfig}: ${status}: ${message}`);
    };
    const checkpoint = () => {
      if (this.closing.signal.aborted) stopWith({ kind: "closed" });
      if (stopped) throw new Interrupted(stopped);
    };
    const bake = async (seconds: number) => {
      if (seconds > 0) await delay(seconds * 1000, undefined, { signal: stopper.signal }).catch(() => undefined);
      checkpoint();
    };
    const total = variants[0]?.DesiredInstanceCount ?? 1;
    const plan = deploymentSchedule(deploymentConfig, total);
    try {
      stage("Creating", `Provisioning the new fleet: ${total} instance${total === 1 ? "" : "s"} per variant.`);
      const firstBatch = plan.strategy === "rolling" ? (plan.shifts[0]?.newInstances ?? total) : undefined;
      const counts =
        firstBatch === undefined ? request.counts : new Map([...request.counts.keys()].map((k) => [k, firstBatch]));
      let started: { states: VariantState[]; shadowStates: VariantState[] };
      try {
        started = await this.runner.startNextFleet(endpoint, request.toConfig, counts);
      } catch (error) {
        checkpoint();
        throw error;
      }
      this.applyStates(variants, started.states);
      this.applyStates(shadows, started.shadowStates);
      checkpoint();
      watch.start();
      for (const [index, step] of plan.shifts.entries()) {
        checkpoint();
        const label = `Step ${index + 1} of ${plan.shifts.length}`;
        if (plan.strategy === "rolling") await this.rollingStep(request, variants, step, total);
        this.runner.shiftTraffic(endpoint, step.newFleetShare, step.newInstances);
        for (const variant of [...variants, ...shadows])
          variant.CurrentWeight = step.newFleetShare * variant.DesiredWeight;
        stage(
          "ActivatingTraffic",
          `${label}: ${percent(step.newFleetShare)} of traffic on the new fleet (${step.newInstances} of ${total} instances).`,
        );
        checkpoint();
        stage(
          "Baking",
          `${label}: baking period of ${step.bakeSeconds} s${watch.tripped === undefined && deploymentConfig?.AutoRollbackConfiguration?.Alarms?.length ? ", watching the rollback alarms" : ""}.`,
        );
        await bake(step.bakeSeconds);
      }
      watch.stop();
      if (plan.terminationWaitSeconds > 0) {
        stage(
          "Baking",
          `Waiting ${plan.terminationWaitSeconds} s (TerminationWaitInSeconds) before the old fleet stops.`,
        );
        await delay(plan.terminationWaitSeconds * 1000, undefined, { signal: this.closing.signal }).catch(
          () => undefined,
        );
        checkpoint();
      }
      await this.runner.promoteNextFleet(endpoint);
      if (this.closing.signal.aborted) return;
      const serving = (pending: PendingVariantState[]) =>
        pending.map(({ VariantStatus: _status, ...state }) => ({ ...state, CurrentWeight: state.DesiredWeight }));
      this.store.updateEndpoint(endpoint, {
        status: "InService",
        failureReason: null,
        configName: request.toConfig,
        variants: serving(variants),
        shadowVariants: serving(shadows),
        deployment: { lastDeploymentConfig: deploymentConfig },
      });
      this.note(
        endpoint,
        `UpdateEndpoint to ${request.toConfig} completed; the old fleet of ${request.fromConfig} stopped.`,
      );
    } catch (error) {
      if (error instanceof Interrupted && error.stop.kind === "closed") return;
      const reason = this.rollbackReason(request, error);
      stage("Deleting", `Rolling back: ${reason}`);
      await this.rollBack(request, plan.rollbackBatchInstances, total, plan.strategy === "rolling");
      if (this.closing.signal.aborted) return;
      this.store.updateEndpoint(endpoint, {
        status: "InService",
        failureReason: reason,
        deployment: { lastDeploymentConfig: deploymentConfig },
      });
    } finally {
      watch.stop();
      clearTimeout(deadline);
      this.closing.signal.removeEventListener("abort", abortOnClose);
    }
  }

  private applyStates(variants: PendingVariantState[], states: VariantState[]) {
    for (const variant of variants) {
      const state = states.find((s) => s.VariantName === variant.VariantName);
      if (!state) continue;
      Object.assign(variant, { ...state, CurrentWeight: 0, DesiredInstanceCount: variant.DesiredInstanceCount });
    }
  }

  /** A rolling batch: the new fleet grows to the step's instances and the old one shrinks by as many. */
  private async rollingStep(
    request: DeploymentRequest,
    variants: PendingVariantState[],
    step: TrafficShift,
    total: number,
  ) {
    for (const variant of variants) {
      await this.runner.resizeFleet(request.endpoint, "next", variant.VariantName, step.newInstances);
      variant.CurrentInstanceCount = step.newInstances;
      this.runner.shiftTraffic(request.endpoint, step.newFleetShare);
      await this.runner.resizeFleet(
        request.endpoint,
        "active",
        variant.VariantName,
        Math.max(0, total - step.newInstances),
      );
    }
  }

  /**
   * Traffic back on the old fleet. Blue/green: at once, then the new fleet stops. Rolling: old instances come back
   * in batches, each taking its traffic back before as many new instances retire.
   */
  private async rollBack(request: DeploymentRequest, batch: number, total: number, rolling: boolean) {
    const { endpoint } = request;
    if (rolling) {
      const old = this.runner.activeCounts(endpoint);
      for (const [variant, count] of old) {
        for (let up = count + batch; up < total + batch; up += batch) {
          const back = Math.min(total, up);
          await this.runner.resizeFleet(endpoint, "active", variant, back);
          this.runner.shiftTraffic(endpoint, (total - back) / total);
          await this.runner.resizeFleet(endpoint, "next", variant, total - back);
        }
      }
    }
    this.runner.shiftTraffic(endpoint, 0);
    await this.runner.discardNextFleet(endpoint);
    this.note(endpoint, `UpdateEndpoint to ${request.toConfig} rolled back; ${request.fromConfig} serves all traffic.`);
  }

  private rollbackReason(request: DeploymentRequest, error: unknown): string {
    const back = `Rolled back to endpoint configuration ${request.fromConfig}`;
    if (error instanceof Interrupted) {
      const { stop } = error;
      if (stop.kind === "alarm") {
        return `${back}: the CloudWatch alarm ${stop.alarm} went into ALARM during the deployment of ${request.toConfig} (${stop.reason})`;
      }
      if (stop.kind === "timeout") {
        return `${back}: the deployment of ${request.toConfig} did not finish within MaximumExecutionTimeoutInSeconds (${stop.seconds} s).`;
      }
    }
    return `${back}: the new fleet of ${request.toConfig} could not be provisioned: ${failureReasonOf(error)}`;
  }
}

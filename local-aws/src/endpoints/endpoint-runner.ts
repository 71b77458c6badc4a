import fs from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { containedPath } from "../contained-path.ts";
import type { ImageRegistry } from "../image-registry.ts";
import type { LogStore } from "../log-store.ts";
import type { ObjectStore } from "../object-store.ts";
import type { EndpointConfigDoc, ProductionVariantDoc, SageMakerStore, VariantState } from "../sagemaker-store.ts";
import type { ContainerContract, InstanceProgram } from "../stack-fixture.ts";
import { AdapterProcess } from "./adapter-process.ts";
import { type ExecutionRolePull, type LocalCapacity, ProvisioningError, prepareContainer } from "./container-launch.ts";
import { choosePool, SHORT_CAPACITY_TAG, shortCapacityTypes } from "./instance-pools.ts";

interface Instance {
  id: string;
  process: AdapterProcess;
  ready: Promise<void>;
  /** Set once /ping answered: the instance takes invocations. */
  healthy: boolean;
  /**
   * Invocations picked for this instance and asynchronous requests running on it, not yet answered: a deployment
   * stops an instance only once it is 0.
   */
  inFlight: number;
}

/** One more invocation in flight on the instance; the returned function ends it (once). */
function occupy(instance: Instance): () => void {
  instance.inFlight += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    instance.inFlight -= 1;
  };
}

interface RunningVariant {
  name: string;
  /** A shadow variant: it answers copies of the production variant's invocations, never the caller. */
  shadow: boolean;
  program: InstanceProgram;
  contract: ContainerContract;
  modelDir: string;
  home: string;
  environment: Record<string, string>;
  weight: number;
  instances: Instance[];
  next: number;
}

/** One fleet of an endpoint: the instances of one endpoint configuration, by variant. */
type Fleet = Map<string, RunningVariant>;

/**
 * What an endpoint runs: the fleet that serves it and, during an UpdateEndpoint, the new fleet beside it with the
 * share of traffic routed to it (blue/green and rolling deployments, endpoint-deployment.ts).
 */
interface EndpointFleets {
  active: Fleet;
  next?: Fleet;
  nextShare: number;
  /** How many instances of each new-fleet variant take that traffic (a canary's or linear step's instances). */
  nextInstances: number;
}

export interface InstanceAddress {
  variant: string;
  instanceId: string;
  url: string;
  logStream: string;
  /** The adapter process standing in for the instance. */
  pid: number | undefined;
}

export interface PickedInstance extends InstanceAddress {
  /** Ends the invocation on this instance (until then the instance is not stopped by a deployment). */
  release: () => void;
  /** The shadow variant's instance that gets a copy of this invocation, when the draw mirrors it. */
  mirror?: PickedInstance;
}

/**
 * The share of the production variant's invocations copied to its shadow variant: the shadow's weight relative
 * to the production variant's, at most all of them. ProductionVariant.InitialVariantWeight: "The traffic to a
 * production variant is determined by the ratio of the VariantWeight to the sum of all VariantWeight values"; the
 * Developer Guide's "Create a shadow test" calls the shadow's share of the production variant's requests its
 * "traffic sampling percentage". The documentation gives no formula for a shadow's weight; local mode reads it as
 * shadow weight / production weight, so equal weights (the guide's "Shadow variants" example) copy every request.
 */
export function shadowShare(shadowWeight: number, productionWeight: number): number {
  if (productionWeight <= 0) return shadowWeight > 0 ? 1 : 0;
  return Math.min(1, shadowWeight / productionWeight);
}

function instanceAddress(variant: RunningVariant, instance: Instance): InstanceAddress {
  return {
    variant: variant.name,
    instanceId: instance.id,
    url: instance.process.url,
    logStream: `${variant.name}/${instance.id}`,
    pid: instance.process.pid,
  };
}

const DEFAULT_HEALTH_TIMEOUT_S = 300;
/** The longest an invocation may take (the runtime's timeout): how long a retiring instance is given to finish. */
const DRAIN_TIMEOUT_MS = 65_000;

/** An endpoint's FailureReason for a provisioning error: its message as SageMaker would say it. */
export function failureReasonOf(error: unknown): string {
  return error instanceof ProvisioningError ? error.message : `Local provisioning failed: ${String(error)}`;
}

export function endpointLogGroup(endpoint: string): string {
  return `/aws/sagemaker/Endpoints/${endpoint}`;
}

/**
 * Runs local endpoints: lays out model data, resolves the image in the local registry, starts one adapter
 * process per instance, and moves the endpoint through Creating/Updating to InService or Failed.
 * Work on one endpoint is serialized; different endpoints proceed independently.
 */
export class EndpointRunner {
  private readonly running = new Map<string, EndpointFleets>();
  private readonly queues = new Map<string, Promise<void>>();
  private closed = false;

  constructor(
    private readonly store: SageMakerStore,
    private readonly objects: ObjectStore,
    private readonly registry: ImageRegistry,
    private readonly logs: LogStore,
    private readonly dataDir: string,
    private readonly capacity: LocalCapacity,
    private readonly executionRoleMayPull: ExecutionRolePull = () => undefined,
  ) {}

  /** Resolves when every queued change to this endpoint has finished (tests and restart use it). */
  settled(endpoint: string): Promise<void> {
    return this.queues.get(endpoint) ?? Promise.resolve();
  }

  private enqueue(endpoint: string, work: () => Promise<void>): Promise<void> {
    const previous = this.queues.get(endpoint) ?? Promise.resolve();
    const next = previous.then(work).catch((error) => {
      console.error(
        JSON.stringify({ level: "error", msg: "local endpoint work failed", endpoint, error: String(error) }),
      );
    });
    this.queues.set(endpoint, next);
    return next;
  }

  create(endpoint: string): Promise<void> {
    return this.enqueue(endpoint, () => this.provision(endpoint));
  }

  /**
   * Starts again, after a restart of the control plane, every endpoint that was serving or on its way. An update that
   * was in progress is not resumed: the endpoint comes back on the configuration it served, with the reason.
   */
  restore(): Promise<void> {
    const work = this.store.endpoints().map((endpoint) => {
      if (endpoint.status === "Deleting") return this.delete(endpoint.name);
      if (endpoint.status === "Failed") return Promise.resolve();
      const interrupted = endpoint.deployment.pending;
      return this.enqueue(endpoint.name, async () => {
        await this.provision(endpoint.name, endpoint.variants);
        if (!interrupted || this.store.endpoint(endpoint.name)?.status !== "InService") return;
        this.store.updateEndpoint(endpoint.name, {
          failureReason: `The local control plane restarted during the update to endpoint configuration ${interrupted.EndpointConfigName}; the endpoint was rolled back to ${endpoint.configName}.`,
          deployment: { lastDeploymentConfig: endpoint.deployment.lastDeploymentConfig },
        });
      });
    });
    return Promise.all(work).then(() => undefined);
  }

  private async provision(endpoint: string, previous?: VariantState[]): Promise<void> {
    const record = this.store.endpoint(endpoint);
    if (!record || this.closed) return;
    const fleets: EndpointFleets = { active: new Map(), nextShare: 0, nextInstances: 0 };
    this.running.set(endpoint, fleets);
    const counts = new Map(previous?.map((p) => [p.VariantName, p.DesiredInstanceCount]));
    try {
      const { fleet, states, shadowStates } = await this.buildFleet(endpoint, record.configName, counts, fleets.active);
      fleets.active = fleet;
      if (this.closed) return;
      this.store.updateEndpoint(endpoint, {
        status: "InService",
        failureReason: null,
        variants: states,
        shadowVariants: shadowStates,
      });
    } catch (error) {
      this.running.delete(endpoint);
      if (this.closed || !this.store.endpoint(endpoint)) return;
      const reason = failureReasonOf(error);
      this.logs.append(endpointLogGroup(endpoint), "local-control-plane", reason);
      this.store.updateEndpoint(endpoint, {
        status: "Failed",
        failureReason: reason,
        variants: [],
        shadowVariants: [],
      });
    }
  }

  /**
   * Starts every variant of the endpoint configuration as one fleet (its own directory, so two fleets of one
   * endpoint can run side by side) and waits until all instances are healthy; `counts` overrides the configured
   * instance counts by variant. On failure the fleet's instances are stopped and the ProvisioningError rethrown.
   */
  async buildFleet(
    endpoint: string,
    configName: string,
    counts: Map<string, number>,
    fleet: Fleet = new Map(),
  ): Promise<{ fleet: Fleet; states: VariantState[]; shadowStates: VariantState[] }> {
    const config = this.store.endpointConfig(configName);
    const states: VariantState[] = [];
    const shadowStates: VariantState[] = [];
    const fleetDir = `fleet-${crypto.randomUUID().slice(0, 8)}`;
    try {
      if (!config) throw new ProvisioningError(`The endpoint configuration ${configName} no longer exists.`);
      for (const variant of config.ProductionVariants) {
        const count = counts.get(variant.VariantName);
        states.push(await this.startVariant(endpoint, config, variant, fleet, fleetDir, false, count));
      }
      for (const variant of config.ShadowProductionVariants ?? []) {
        const count = counts.get(variant.VariantName);
        shadowStates.push(await this.startVariant(endpoint, config, variant, fleet, fleetDir, true, count));
      }
      return { fleet, states, shadowStates };
    } catch (error) {
      await this.stopFleet(fleet);
      throw error;
    }
  }

  private async startVariant(
    endpoint: string,
    config: EndpointConfigDoc,
    variant: ProductionVariantDoc,
    variants: Fleet,
    fleetDir: string,
    shadow: boolean,
    countOverride?: number,
  ): Promise<VariantState> {
    const label = `${shadow ? "shadow" : "production"} variant ${variant.VariantName}`;
    let instanceType = variant.InstanceType;
    let modelName = variant.ModelName;
    if (variant.InstancePools && variant.InstancePools.length > 0) {
      const tag = this.store.tags(config.EndpointConfigArn).find((t) => t.Key === SHORT_CAPACITY_TAG)?.Value;
      const short = shortCapacityTypes(tag, this.capacity.shortCapacity.join(","));
      const pool = choosePool(variant.InstancePools, short);
      if (!pool) {
        const types = [...variant.InstancePools].sort((a, b) => a.Priority - b.Priority).map((p) => p.InstanceType);
        throw new ProvisioningError(
          `Unable to provision requested ML compute capacity for ${label}: insufficient capacity for every instance pool (${types.join(", ")}).`,
        );
      }
      instanceType = pool.InstanceType;
      modelName = pool.ModelNameOverride ?? modelName;
    }
    const model = this.store.model(modelName);
    if (!model) throw new ProvisioningError(`The model ${modelName} of ${label} no longer exists.`);
    const variantDir = containedPath(this.dataDir, "endpoints", endpoint, fleetDir, variant.VariantName);
    const modelDir = path.join(variantDir, "model");
    const { imageUri, image, program, contract, environment } = await prepareContainer(
      {
        registry: this.registry,
        objects: this.objects,
        capacity: this.capacity,
        executionRoleMayPull: this.executionRoleMayPull,
      },
      {
        model,
        label,
        instanceType,
        modelDir,
        note: (line) => this.logs.append(endpointLogGroup(endpoint), "local-control-plane", line),
      },
    );
    const running: RunningVariant = {
      name: variant.VariantName,
      shadow,
      program,
      contract,
      modelDir,
      home: path.join(variantDir, "home"),
      environment,
      weight: variant.InitialVariantWeight ?? 1,
      instances: [],
      next: 0,
    };
    variants.set(variant.VariantName, running);
    const count = countOverride ?? variant.InitialInstanceCount ?? 1;
    const timeoutMs = (variant.ContainerStartupHealthCheckTimeoutInSeconds ?? DEFAULT_HEALTH_TIMEOUT_S) * 1000;
    await this.scaleVariant(endpoint, running, count, timeoutMs, label);
    return {
      VariantName: variant.VariantName,
      ModelName: modelName,
      InstanceType: variant.InstancePools?.length ? undefined : instanceType,
      InstancePools: variant.InstancePools?.length
        ? [...variant.InstancePools]
            .sort((a, b) => a.Priority - b.Priority)
            .map((pool) => ({
              InstanceType: pool.InstanceType,
              CurrentInstanceCount: pool.InstanceType === instanceType ? count : 0,
            }))
        : undefined,
      CurrentWeight: running.weight,
      DesiredWeight: running.weight,
      CurrentInstanceCount: count,
      DesiredInstanceCount: count,
      DeployedImages: [
        {
          SpecifiedImage: imageUri,
          ResolvedImage: `${imageUri.split("@")[0]?.replace(/:[\w.-]+$/, "")}@${image.digest}`,
          ResolutionTime: Date.now() / 1000,
        },
      ],
    };
  }

  /** Brings a variant to `count` healthy instances: starts the missing ones and waits for their /ping. */
  private async scaleVariant(
    endpoint: string,
    variant: RunningVariant,
    count: number,
    timeoutMs: number,
    label: string,
  ) {
    const extra = variant.instances.splice(count);
    await Promise.all(extra.map((instance) => instance.process.stop()));
    const started: Instance[] = [];
    while (variant.instances.length < count) {
      const instance = await this.startInstance(endpoint, variant, timeoutMs);
      variant.instances.push(instance);
      started.push(instance);
    }
    try {
      await Promise.all(started.map((instance) => instance.ready));
    } catch (error) {
      throw new ProvisioningError(
        `The primary container for ${label} did not pass the ping health check: ${(error as Error).message}`,
      );
    }
  }

  private async startInstance(endpoint: string, variant: RunningVariant, timeoutMs: number): Promise<Instance> {
    if (this.closed) throw new ProvisioningError("The local control plane is stopping.");
    const id = `i-${crypto.randomUUID().replaceAll("-", "").slice(0, 17)}`;
    const stream = `${variant.name}/${id}`;
    const group = endpointLogGroup(endpoint);
    const adapter = new AdapterProcess({
      program: variant.program,
      contract: variant.contract,
      modelDir: variant.modelDir,
      home: variant.home,
      environment: variant.environment,
      onLine: (line) => this.logs.append(group, stream, line),
    });
    await adapter.start();
    const instance: Instance = {
      id,
      process: adapter,
      ready: adapter.waitUntilHealthy(timeoutMs),
      healthy: false,
      inFlight: 0,
    };
    instance.ready.then(
      () => {
        instance.healthy = true;
      },
      () => undefined,
    );
    adapter.onUnexpectedExit = (tail) => this.replaceInstance(endpoint, variant, instance, tail);
    return instance;
  }

  /** SageMaker replaces an instance whose container died; so does local mode, once the endpoint is serving. */
  private replaceInstance(endpoint: string, variant: RunningVariant, dead: Instance, tail: string) {
    this.logs.append(
      endpointLogGroup(endpoint),
      `${variant.name}/${dead.id}`,
      `container exited; replacing the instance. ${tail}`,
    );
    if (this.closed || this.store.endpoint(endpoint)?.status !== "InService") return;
    void this.enqueue(endpoint, async () => {
      const index = variant.instances.indexOf(dead);
      if (index < 0 || this.closed) return;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const replacement = await this.startInstance(endpoint, variant, DEFAULT_HEALTH_TIMEOUT_S * 1000);
      variant.instances[index] = replacement;
    });
  }

  /** UpdateEndpointWeightsAndCapacities: new weights apply at once; instance counts start or stop processes. */
  update(endpoint: string, desired: { VariantName: string; DesiredWeight?: number; DesiredInstanceCount?: number }[]) {
    return this.enqueue(endpoint, async () => {
      const record = this.store.endpoint(endpoint);
      const variants = this.running.get(endpoint)?.active;
      if (!record || !variants) return;
      const states = record.variants.map((state) => ({ ...state }));
      let failure: string | null = null;
      for (const change of desired) {
        const state = states.find((s) => s.VariantName === change.VariantName);
        const running = variants.get(change.VariantName);
        if (!state || !running) continue;
        if (change.DesiredWeight !== undefined) {
          running.weight = change.DesiredWeight;
          state.CurrentWeight = state.DesiredWeight = change.DesiredWeight;
        }
        if (change.DesiredInstanceCount !== undefined) {
          try {
            await this.scaleVariant(
              endpoint,
              running,
              change.DesiredInstanceCount,
              DEFAULT_HEALTH_TIMEOUT_S * 1000,
              `production variant ${change.VariantName}`,
            );
          } catch (error) {
            failure = (error as Error).message;
          }
          const healthy = running.instances.length;
          state.CurrentInstanceCount = state.DesiredInstanceCount = healthy;
          for (const pool of state.InstancePools ?? [])
            if (pool.CurrentInstanceCount > 0) pool.CurrentInstanceCount = healthy;
        }
      }
      this.store.updateEndpoint(endpoint, { status: "InService", failureReason: failure, variants: states });
    });
  }

  delete(endpoint: string): Promise<void> {
    return this.enqueue(endpoint, async () => {
      const fleets = this.running.get(endpoint);
      this.running.delete(endpoint);
      if (fleets) await Promise.all([this.stopFleet(fleets.active), fleets.next && this.stopFleet(fleets.next)]);
      fs.rmSync(containedPath(this.dataDir, "endpoints", endpoint), { recursive: true, force: true });
      this.store.deleteEndpoint(endpoint);
    });
  }

  /** Queues a deployment (or any work that must not overlap the endpoint's other changes). */
  deploy(endpoint: string, work: () => Promise<void>): Promise<void> {
    return this.enqueue(endpoint, work);
  }

  /** The serving fleet's instance counts by production variant (what RetainAllVariantProperties keeps). */
  activeCounts(endpoint: string): Map<string, number> {
    const fleet = this.running.get(endpoint)?.active ?? new Map<string, RunningVariant>();
    const production = [...fleet.values()].filter((variant) => !variant.shadow);
    return new Map(production.map((variant) => [variant.name, variant.instances.length]));
  }

  /** Starts the new fleet of an update beside the serving one; it takes no traffic until `shiftTraffic`. */
  async startNextFleet(
    endpoint: string,
    configName: string,
    counts: Map<string, number>,
  ): Promise<{ states: VariantState[]; shadowStates: VariantState[] }> {
    const fleets = this.running.get(endpoint);
    if (!fleets || this.closed) throw new ProvisioningError("The endpoint has no running fleet to update.");
    fleets.nextShare = 0;
    const { fleet, states, shadowStates } = await this.buildFleet(endpoint, configName, counts);
    if (this.closed) {
      await this.stopFleet(fleet);
      throw new ProvisioningError("The local control plane is stopping.");
    }
    fleets.next = fleet;
    return { states, shadowStates };
  }

  /**
   * Routes `share` (0..1) of the endpoint's invocations to the first `instances` instances of each new-fleet variant
   * (all of them by default), the rest to the serving fleet.
   */
  shiftTraffic(endpoint: string, share: number, instances = Number.POSITIVE_INFINITY): void {
    const fleets = this.running.get(endpoint);
    if (!fleets?.next) return;
    fleets.nextShare = Math.min(1, Math.max(0, share));
    fleets.nextInstances = instances;
  }

  /**
   * Sets a fleet's instance count of a variant (a rolling deployment's batches): starts instances and waits for
   * them, or retires the surplus (no new invocations; stopped once their invocations are answered).
   */
  async resizeFleet(endpoint: string, which: "active" | "next", variantName: string, count: number): Promise<void> {
    const variant = this.running.get(endpoint)?.[which]?.get(variantName);
    if (!variant) return;
    const retired = variant.instances.splice(count);
    await this.scaleVariant(
      endpoint,
      variant,
      count,
      DEFAULT_HEALTH_TIMEOUT_S * 1000,
      `production variant ${variantName}`,
    );
    await this.retire(retired);
  }

  /** The new fleet becomes the serving one; the old one is drained and stopped. */
  async promoteNextFleet(endpoint: string): Promise<void> {
    const fleets = this.running.get(endpoint);
    if (!fleets?.next) return;
    const old = fleets.active;
    fleets.active = fleets.next;
    fleets.next = undefined;
    fleets.nextShare = 0;
    await this.stopFleet(old, { drain: true });
  }

  /** Rolls traffic back to the serving fleet at once and drains and stops the new fleet. */
  async discardNextFleet(endpoint: string): Promise<void> {
    const fleets = this.running.get(endpoint);
    if (!fleets?.next) return;
    const next = fleets.next;
    fleets.next = undefined;
    fleets.nextShare = 0;
    await this.stopFleet(next, { drain: true });
  }

  /** Waits (bounded) for each instance's invocations to be answered, then stops it. */
  private async retire(instances: Instance[]): Promise<void> {
    await Promise.all(
      instances.map(async (instance) => {
        const deadline = Date.now() + DRAIN_TIMEOUT_MS;
        while (instance.inFlight > 0 && Date.now() < deadline) await delay(50);
        await instance.process.stop();
      }),
    );
  }

  /**
   * Stops every instance of the fleet: drained first when a deployment retires it (no invocation fails because of
   * the shift), at once when the endpoint is deleted or the control plane closes.
   */
  private async stopFleet(fleet: Fleet, { drain = false } = {}) {
    const instances = [...fleet.values()].flatMap((variant) => variant.instances.splice(0));
    if (drain) await this.retire(instances);
    else await Promise.all(instances.map((instance) => instance.process.stop()));
  }

  /**
   * An instance of the endpoint to send an invocation to: the requested production variant, or one drawn by
   * weight, then round-robin over its instances; waits (bounded) for an instance that is still starting. When the
   * fleet has a shadow variant, a draw by its share (shadowShare) adds the shadow instance that gets a copy.
   */
  async pick(endpoint: string, targetVariant?: string): Promise<PickedInstance | undefined> {
    const fleets = this.running.get(endpoint);
    if (!fleets) return undefined;
    const fleet = fleets.next && Math.random() < fleets.nextShare ? fleets.next : fleets.active;
    if (fleet.size === 0) return undefined;
    let variant: RunningVariant | undefined;
    if (targetVariant) variant = fleet.get(targetVariant);
    else {
      const all = [...fleet.values()].filter((v) => !v.shadow && v.instances.length > 0);
      const total = all.reduce((sum, v) => sum + v.weight, 0);
      let draw = Math.random() * total;
      variant =
        all.find((v) => {
          draw -= v.weight;
          return draw < 0;
        }) ?? all[0];
    }
    const serving = fleet === fleets.next ? variant?.instances.slice(0, fleets.nextInstances) : variant?.instances;
    if (!variant || variant.shadow || !serving || serving.length === 0) return undefined;
    const instance = serving[variant.next++ % serving.length]!;
    const release = occupy(instance);
    let timer: NodeJS.Timeout | undefined;
    const ready = await Promise.race([
      instance.ready.then(() => true).catch(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), 60_000);
      }),
    ]);
    clearTimeout(timer);
    if (!ready || !instance.process.running) {
      release();
      return undefined;
    }
    return { ...instanceAddress(variant, instance), release, mirror: this.mirrorOf(fleet, variant) };
  }

  /**
   * The fleet's shadow instance that gets a copy of an invocation of `production`, drawn by the shadow's share,
   * round-robin over its instances that passed /ping (one whose container has died since gets the copy and fails
   * it, as on AWS); none when the draw does not mirror this invocation.
   */
  private mirrorOf(fleet: Fleet, production: RunningVariant): PickedInstance | undefined {
    const shadow = [...fleet.values()].find((v) => v.shadow);
    if (!shadow || Math.random() >= shadowShare(shadow.weight, production.weight)) return undefined;
    const healthy = shadow.instances.filter((instance) => instance.healthy);
    if (healthy.length === 0) return undefined;
    const instance = healthy[shadow.next++ % healthy.length]!;
    return { ...instanceAddress(shadow, instance), release: occupy(instance) };
  }

  /**
   * Counts an asynchronous request running on an instance of the serving fleet among the instance's in-flight
   * invocations, so a deployment that retires the instance waits for it as for an invocation. Undefined when the
   * instance is no longer in the serving fleet; the returned function ends the request's hold.
   */
  hold(endpoint: string, instanceId: string): (() => void) | undefined {
    const instance = this.servingInstance(endpoint, instanceId);
    return instance ? occupy(instance) : undefined;
  }

  /** Invocations and asynchronous requests running now on an instance of the serving fleet (0 when not in it). */
  inFlight(endpoint: string, instanceId: string): number {
    return this.servingInstance(endpoint, instanceId)?.inFlight ?? 0;
  }

  private servingInstance(endpoint: string, instanceId: string): Instance | undefined {
    const variants = [...(this.running.get(endpoint)?.active.values() ?? [])];
    return variants.flatMap((variant) => variant.instances).find((candidate) => candidate.id === instanceId);
  }

  /**
   * Every instance of the endpoint's serving fleet that passed /ping and still runs (asynchronous inference spreads
   * work over them at most MaxConcurrentInvocationsPerInstance each, holding each instance while it works).
   */
  healthyInstances(endpoint: string): InstanceAddress[] {
    const variants = [...(this.running.get(endpoint)?.active.values() ?? [])].filter((variant) => !variant.shadow);
    return variants.flatMap((variant) =>
      variant.instances
        .filter((instance) => instance.healthy && instance.process.running)
        .map((instance) => instanceAddress(variant, instance)),
    );
  }

  /** The process of the first instance of a serving variant, production or shadow (tests stop a container by it). */
  instancePid(endpoint: string, variant: string): number | undefined {
    return this.running.get(endpoint)?.active.get(variant)?.instances[0]?.process.pid;
  }

  /** Whether the serving fleet runs `variant` as a production variant (a shadow variant is not one). */
  hasVariant(endpoint: string, variant: string): boolean {
    const running = this.running.get(endpoint)?.active.get(variant);
    return running !== undefined && !running.shadow;
  }

  /** Stops every adapter process (the control plane is shutting down; endpoints keep their stored state). */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.running.values()];
    this.running.clear();
    await Promise.all(
      all.flatMap((fleets) => [this.stopFleet(fleets.active), fleets.next && this.stopFleet(fleets.next)]),
    );
    await Promise.all([...this.queues.values()]);
  }
}

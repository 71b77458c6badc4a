import fs from "node:fs";
import path from "node:path";
import { containedPath } from "../contained-path.ts";
import type { ImageRegistry } from "../image-registry.ts";
import type { LogStore } from "../log-store.ts";
import type { ObjectStore } from "../object-store.ts";
import type { EndpointConfigDoc, ProductionVariantDoc, SageMakerStore, VariantState } from "../sagemaker-store.ts";
import { AdapterProcess } from "./adapter-process.ts";
import { type LocalCapacity, ProvisioningError, prepareContainer } from "./container-launch.ts";
import { choosePool, SHORT_CAPACITY_TAG, shortCapacityTypes } from "./instance-pools.ts";

interface Instance {
  id: string;
  process: AdapterProcess;
  ready: Promise<void>;
}

interface RunningVariant {
  name: string;
  modelDir: string;
  home: string;
  environment: Record<string, string>;
  weight: number;
  instances: Instance[];
  next: number;
}

export interface PickedInstance {
  variant: string;
  url: string;
  logStream: string;
  /** The adapter process standing in for the instance. */
  pid: number | undefined;
}

const DEFAULT_HEALTH_TIMEOUT_S = 300;

export function endpointLogGroup(endpoint: string): string {
  return `/aws/sagemaker/Endpoints/${endpoint}`;
}

/**
 * Runs local endpoints: lays out model data, resolves the image in the local registry, starts one adapter
 * process per instance, and moves the endpoint through Creating/Updating to InService or Failed.
 * Work on one endpoint is serialized; different endpoints proceed independently.
 */
export class EndpointRunner {
  private readonly running = new Map<string, Map<string, RunningVariant>>();
  private readonly queues = new Map<string, Promise<void>>();
  private closed = false;

  constructor(
    private readonly store: SageMakerStore,
    private readonly objects: ObjectStore,
    private readonly registry: ImageRegistry,
    private readonly logs: LogStore,
    private readonly dataDir: string,
    private readonly repoRoot: string,
    private readonly capacity: LocalCapacity,
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

  /** Starts again, after a restart of the control plane, every endpoint that was serving or on its way. */
  restore(): Promise<void> {
    const work = this.store.endpoints().map((endpoint) => {
      if (endpoint.status === "Deleting") return this.delete(endpoint.name);
      if (endpoint.status === "Failed") return Promise.resolve();
      return this.enqueue(endpoint.name, () => this.provision(endpoint.name, endpoint.variants));
    });
    return Promise.all(work).then(() => undefined);
  }

  private async provision(endpoint: string, previous?: VariantState[]): Promise<void> {
    const record = this.store.endpoint(endpoint);
    if (!record || this.closed) return;
    const config = this.store.endpointConfig(record.configName);
    const variants = new Map<string, RunningVariant>();
    this.running.set(endpoint, variants);
    const states: VariantState[] = [];
    try {
      if (!config) throw new ProvisioningError(`The endpoint configuration ${record.configName} no longer exists.`);
      for (const variant of config.ProductionVariants) {
        const count = previous?.find((p) => p.VariantName === variant.VariantName)?.DesiredInstanceCount;
        states.push(await this.startVariant(endpoint, config, variant, variants, count));
      }
      if (this.closed) return;
      this.store.updateEndpoint(endpoint, { status: "InService", failureReason: null, variants: states });
    } catch (error) {
      await this.stopVariants(variants);
      this.running.delete(endpoint);
      if (this.closed || !this.store.endpoint(endpoint)) return;
      const reason = error instanceof ProvisioningError ? error.message : `Local provisioning failed: ${String(error)}`;
      this.logs.append(endpointLogGroup(endpoint), "local-control-plane", reason);
      this.store.updateEndpoint(endpoint, { status: "Failed", failureReason: reason, variants: states });
    }
  }

  private async startVariant(
    endpoint: string,
    config: EndpointConfigDoc,
    variant: ProductionVariantDoc,
    variants: Map<string, RunningVariant>,
    countOverride?: number,
  ): Promise<VariantState> {
    const label = `production variant ${variant.VariantName}`;
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
    const variantDir = containedPath(this.dataDir, "endpoints", endpoint, variant.VariantName);
    const modelDir = path.join(variantDir, "model");
    const { imageUri, image, environment } = await prepareContainer(
      { registry: this.registry, objects: this.objects, capacity: this.capacity },
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
      repoRoot: this.repoRoot,
      modelDir: variant.modelDir,
      home: variant.home,
      environment: variant.environment,
      onLine: (line) => this.logs.append(group, stream, line),
    });
    await adapter.start();
    const instance: Instance = { id, process: adapter, ready: adapter.waitUntilHealthy(timeoutMs) };
    instance.ready.catch(() => undefined);
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
      const variants = this.running.get(endpoint);
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
      const variants = this.running.get(endpoint);
      this.running.delete(endpoint);
      if (variants) await this.stopVariants(variants);
      fs.rmSync(containedPath(this.dataDir, "endpoints", endpoint), { recursive: true, force: true });
      this.store.deleteEndpoint(endpoint);
    });
  }

  private async stopVariants(variants: Map<string, RunningVariant>) {
    await Promise.all([...variants.values()].flatMap((variant) => variant.instances.map((i) => i.process.stop())));
  }

  /**
   * An instance of the endpoint to send an invocation to: the requested variant, or one drawn by weight,
   * then round-robin over its instances; waits (bounded) for an instance that is still starting.
   */
  async pick(endpoint: string, targetVariant?: string): Promise<PickedInstance | undefined> {
    const variants = this.running.get(endpoint);
    if (!variants || variants.size === 0) return undefined;
    let variant: RunningVariant | undefined;
    if (targetVariant) variant = variants.get(targetVariant);
    else {
      const all = [...variants.values()].filter((v) => v.instances.length > 0);
      const total = all.reduce((sum, v) => sum + v.weight, 0);
      let draw = Math.random() * total;
      variant =
        all.find((v) => {
          draw -= v.weight;
          return draw < 0;
        }) ?? all[0];
    }
    if (!variant || variant.instances.length === 0) return undefined;
    const instance = variant.instances[variant.next++ % variant.instances.length]!;
    let timer: NodeJS.Timeout | undefined;
    const ready = await Promise.race([
      instance.ready.then(() => true).catch(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), 60_000);
      }),
    ]);
    clearTimeout(timer);
    if (!ready || !instance.process.running) return undefined;
    return {
      variant: variant.name,
      url: instance.process.url,
      logStream: `${variant.name}/${instance.id}`,
      pid: instance.process.pid,
    };
  }

  hasVariant(endpoint: string, variant: string): boolean {
    return this.running.get(endpoint)?.has(variant) ?? false;
  }

  /** Stops every adapter process (the control plane is shutting down; endpoints keep their stored state). */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.running.values()];
    this.running.clear();
    await Promise.all(all.map((variants) => this.stopVariants(variants)));
    await Promise.all([...this.queues.values()]);
  }
}

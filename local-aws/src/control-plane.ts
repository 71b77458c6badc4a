import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { AlarmEngine } from "./alarms/alarm-engine.ts";
import { MetricSource } from "./alarms/metric-source.ts";
import { AsyncInference } from "./async/async-inference.ts";
import { AsyncRequestStore } from "./async/async-request-store.ts";
import { BacklogMetrics } from "./async/backlog-metrics.ts";
import { registerScalingPolicyActions } from "./autoscaling/policy-actions.ts";
import { BuildRunner } from "./builds/build-runner.ts";
import { BuildStore } from "./builds/build-store.ts";
import { DataCapture } from "./capture/data-capture.ts";
import { openLocalDatabase } from "./database.ts";
import type { GpuEmulation } from "./endpoints/container-launch.ts";
import { EndpointDeployments } from "./endpoints/endpoint-deployment.ts";
import { EndpointRunner } from "./endpoints/endpoint-runner.ts";
import { EMULATE_GPU_ENV, SHORT_CAPACITY_ENV, shortCapacityTypes } from "./endpoints/instance-pools.ts";
import { DEFAULT_LOCAL_PREFIX, localIam } from "./iam/local-iam.ts";
import { ImageRegistry } from "./image-registry.ts";
import { issueLocalCredentials, type LocalCredentials } from "./local-credentials.ts";
import { LogStore } from "./log-store.ts";
import { MetricDatapoints } from "./metric-datapoints.ts";
import { MetricsStore } from "./metrics-store.ts";
import { ModelPackageStore } from "./model-registry/model-package-store.ts";
import { ObjectStore } from "./object-store.ts";
import { SageMakerStore } from "./sagemaker-store.ts";
import { applicationAutoScalingService, scaledVariants } from "./services/application-auto-scaling.ts";
import { cloudWatchService } from "./services/cloudwatch.ts";
import { cloudWatchLogsService } from "./services/cloudwatch-logs.ts";
import { codeBuildService } from "./services/codebuild.ts";
import { ecrService } from "./services/ecr.ts";
import { handleS3 } from "./services/s3.ts";
import { sageMakerService } from "./services/sagemaker.ts";
import { handleRuntime } from "./services/sagemaker-runtime.ts";
import { handleAsyncInvocation } from "./services/sagemaker-runtime-async.ts";
import type { LocalStackFixture } from "./stack-fixture.ts";
import { TransformRunner } from "./transform/transform-runner.ts";
import { TransformStore } from "./transform/transform-store.ts";
import { jsonAuthError } from "./wire/auth-errors.ts";
import { authenticate } from "./wire/authenticate.ts";
import { handleJsonRpc, type JsonService, sendJsonError, unservedOperation } from "./wire/json-rpc.ts";
import {
  authErrorOf,
  bodyLimitOf,
  protocolOf,
  runtimeInvocation,
  sendProtocolError,
  serviceOf,
  signingNameOf,
  throttledErrorOf,
} from "./wire/protocols.ts";
import { type AwsRequest, DEFAULT_REGION, readBody } from "./wire/request.ts";
import { requirePayloadHash } from "./wire/s3-payload.ts";
import { SignatureError, type SignedMessage } from "./wire/sigv4.ts";
import { Throttle } from "./wire/throttle.ts";

export const DEFAULT_LOCAL_AWS_PORT = 4599;
/** What is read of a request to a service local mode does not have, to check its payload hash. */
const UNSERVED_BODY_LIMIT = 1024 * 1024;

function gpuEmulationFrom(value: string | undefined): GpuEmulation {
  if (value === "0") return "off";
  if (value === "1") return "all";
  return "cpu-image";
}

export interface ControlPlaneOptions {
  /** Where the database, object bytes, endpoint model directories and build scratch space live. */
  dataDir: string;
  /** The stack this control plane stands in for: policies, projects, bucket, image repositories and programs. */
  fixture: LocalStackFixture;
  /** 0 picks a free port (tests). */
  port: number;
  /** Defaults to 127.0.0.1; the control plane never listens beyond loopback unless told. */
  host?: string;
  /** Wait for restored endpoints to be InService before resolving (default true). */
  waitForEndpoints?: boolean;
  /** Instance types short of capacity for every endpoint; default LOCAL_AWS_SHORT_CAPACITY (comma-separated). */
  shortCapacity?: string[];
  /** What a GPU request does on a machine without a GPU; default from LOCAL_AWS_EMULATE_GPU (0: off, 1: all). */
  gpuEmulation?: GpuEmulation;
  /** The Hugging Face Hub (or a stand-in) model-packaging builds download from; default HF_ENDPOINT. */
  hfEndpoint?: string;
  /** Requests per second per service before it throttles; default LOCAL_AWS_MAX_TPS, else unlimited. */
  maxRequestsPerSecond?: number;
  /**
   * The prefix the local stack is "deployed" with: the console's IAM policy allows SageMaker resources named with
   * it only. Default the stack's own default, `dc-`; like the stack, one refuses anything but 1-21 lower-case
   * letters, digits and hyphens.
   */
  resourcePrefix?: string;
  /** Milliseconds since the epoch, for signature freshness and throttling windows (default Date.now; tests hold it). */
  clock?: () => number;
  /**
   * Epoch milliseconds for metric publishing, alarm evaluation and scaling cooldowns only (default Date.now): tests
   * move it ahead to watch minutes of alarm periods pass in seconds. Requests keep the real clock.
   */
  metricClock?: () => number;
}

/** What the control plane answered since it started, counted by outcome. */
export interface ControlPlaneTraffic {
  requests: number;
  /** Answered 4xx: refused input, failed authentication, throttling of the JSON services. */
  refused: number;
  /** Answered 5xx (S3's SlowDown is one). */
  failed: number;
  throttled: number;
}

export interface ControlPlane {
  url: string;
  port: number;
  dataDir: string;
  objects: ObjectStore;
  registry: ImageRegistry;
  endpoints: EndpointRunner;
  /** Local CloudWatch's alarms; `alarms.actions` is where other services register alarm-action handlers. */
  alarms: AlarmEngine;
  transforms: TransformRunner;
  builds: BuildRunner;
  logs: LogStore;
  /** The Asynchronous Inference queue (InvokeEndpointAsync). */
  asyncRequests: AsyncRequestStore;
  /** Real-time data capture; writes buffered records about once a second (tests call `flush` directly). */
  capture: DataCapture;
  /** Publishes the asynchronous endpoints' backlog metrics (every 10 s on its own; tests call it directly). */
  backlogMetrics: BacklogMetrics;
  /** The keys issued at this start and the shared credentials file that holds them. */
  credentials: LocalCredentials;
  /** The stack prefix the console's and builds' requests are authorised with (the console must use it too). */
  resourcePrefix: string;
  /** The stack's artifact bucket. */
  bucket: string;
  /** The stack's execution role, the one role the console's policy may pass to SageMaker. */
  executionRoleArn: string;
  traffic: ControlPlaneTraffic;
  close(): Promise<void>;
}

/** The request URL for services' query and origin; a Host header that is no host name falls back to loopback. */
function requestUrl(rawUrl: string, host: string | undefined): URL {
  try {
    return new URL(rawUrl, `http://${host ?? "127.0.0.1"}`);
  } catch {
    return new URL(rawUrl.startsWith("/") ? rawUrl : "/", "http://127.0.0.1");
  }
}

function accessKeyIdOf(authorization: string | undefined): string | undefined {
  return /Credential=([^/,\s]+)\//.exec(authorization ?? "")?.[1];
}

/**
 * Starts the local AWS control plane: one loopback HTTP server that answers SageMaker, SageMaker Runtime,
 * CodeBuild, ECR, S3, CloudWatch, CloudWatch Logs and Application Auto Scaling in their wire protocols.
 * Services are told apart by `X-Amz-Target` (JSON protocols), the runtime's `/endpoints/<name>/invocations`
 * path, and otherwise S3. Every request must be signed (SigV4, verified) with keys issued at this start, and is
 * authorised with the IAM policy the CDK stack synthesises for its signer (admin: unrestricted).
 */
export async function startControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  const dataDir = path.resolve(options.dataDir);
  const db = openLocalDatabase(dataDir);
  const credentials = issueLocalCredentials(dataDir, DEFAULT_REGION);
  const objects = new ObjectStore(db, dataDir);
  const { fixture } = options;
  objects.createBucket(fixture.bucket);
  const registry = new ImageRegistry(db, fixture);
  registry.ensureBaseImages();
  const logs = new LogStore(db);
  const metrics = new MetricsStore(db);
  const sageMaker = new SageMakerStore(db);
  const resourcePrefix = options.resourcePrefix ?? DEFAULT_LOCAL_PREFIX;
  if (!/^[a-z0-9-]{1,21}$/.test(resourcePrefix)) {
    throw new Error(`The stack's name prefix "${resourcePrefix}" must be 1-21 lower-case letters, digits or hyphens.`);
  }
  const iam = localIam(sageMaker, db, fixture, resourcePrefix);
  const capacity = {
    shortCapacity: options.shortCapacity ?? [...shortCapacityTypes(undefined, process.env[SHORT_CAPACITY_ENV])],
    gpuEmulation: options.gpuEmulation ?? gpuEmulationFrom(process.env[EMULATE_GPU_ENV]),
  };
  const executionRoleMayPull = (role: string, repository: string) => iam.executionRoleMayPull(role, repository);
  const endpoints = new EndpointRunner(sageMaker, objects, registry, logs, dataDir, capacity, executionRoleMayPull);
  const transformJobs = new TransformStore(db);
  const transforms = new TransformRunner({
    jobs: transformJobs,
    sageMaker,
    objects,
    registry,
    logs,
    iam,
    capacity,
    executionRoleMayPull,
    dataDir,
  });
  const publishedMetrics = new MetricDatapoints(db);
  const asyncRequests = new AsyncRequestStore(db);
  const dataCapture = new DataCapture({ sageMaker, objects, iam, logs, region: DEFAULT_REGION });
  const asyncInference = new AsyncInference({
    sageMaker,
    runner: endpoints,
    objects,
    requests: asyncRequests,
    iam,
    logs,
    metrics: publishedMetrics,
    capture: dataCapture,
    region: DEFAULT_REGION,
  });
  const metricClock = options.metricClock ?? Date.now;
  const backlogMetrics = new BacklogMetrics(sageMaker, endpoints, asyncRequests, publishedMetrics, metricClock);
  const metricSource = new MetricSource(metrics, publishedMetrics);
  const alarms = new AlarmEngine(db, metricSource, { clock: metricClock });
  registerScalingPolicyActions({
    db,
    store: sageMaker,
    runner: endpoints,
    alarms,
    clock: metricClock,
    facts: (region) => iam.facts(region),
  });
  alarms.actions.holdCreatorsTo(
    (creator, region, queries) => iam.missingPermissions(creator, region, queries).length === 0,
  );
  const deployments = new EndpointDeployments(sageMaker, endpoints, alarms, logs);
  const buildStore = new BuildStore(db);
  let url = "";
  const builds = new BuildRunner(
    buildStore,
    registry,
    logs,
    objects,
    dataDir,
    fixture,
    () => url,
    credentials,
    iam,
    options.hfEndpoint ?? process.env.HF_ENDPOINT,
  );
  builds.failInterrupted();

  const services: JsonService[] = [
    sageMakerService(
      sageMaker,
      endpoints,
      deployments,
      alarms,
      transformJobs,
      transforms,
      (endpoint) => scaledVariants(db, endpoint),
      new ModelPackageStore(db),
      (roleArn) => roleArn === iam.executionRoleArn,
    ),
    codeBuildService(buildStore, builds),
    ecrService(registry),
    cloudWatchLogsService(logs),
    cloudWatchService(metricSource, alarms, publishedMetrics, metricClock),
    applicationAutoScalingService(db, sageMaker, endpoints, alarms, metricClock, iam),
  ];
  const clock = options.clock ?? Date.now;
  const throttle = new Throttle(
    options.maxRequestsPerSecond ?? (Number(process.env.LOCAL_AWS_MAX_TPS) || undefined),
    clock,
  );
  const traffic: ControlPlaneTraffic = { requests: 0, refused: 0, failed: 0, throttled: 0 };

  const health = async (
    raw: IncomingMessage,
    response: ServerResponse,
    message: SignedMessage,
    query: URLSearchParams,
  ) => {
    const admin = await authenticate(message, query, undefined, DEFAULT_REGION, credentials, clock()).then(
      (auth) => auth.principal.kind === "admin",
      () => false,
    );
    raw.resume();
    const text = JSON.stringify(
      admin ? { status: "ok", dataDir, credentialsFile: credentials.file } : { status: "ok" },
    );
    response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    response.end(text);
  };

  /** A JSON service local mode does not have: authenticated first (any service's scope), then refused. */
  const unservedService = async (
    raw: IncomingMessage,
    response: ServerResponse,
    message: SignedMessage,
    query: URLSearchParams,
    target: string,
  ) => {
    try {
      message.body = await readBody(raw, UNSERVED_BODY_LIMIT, () => unservedOperation(target));
      await authenticate(message, query, undefined, DEFAULT_REGION, credentials, clock()).catch((error: unknown) => {
        throw error instanceof SignatureError ? jsonAuthError(error) : error;
      });
      throw unservedOperation(target);
    } catch (error) {
      sendJsonError(response, "application/json", error);
    }
  };

  const handle = async (raw: IncomingMessage, response: ServerResponse) => {
    const method = raw.method ?? "GET";
    const rawUrl = raw.url ?? "/";
    const queryStart = rawUrl.indexOf("?");
    const message: SignedMessage = {
      method,
      path: queryStart < 0 ? rawUrl : rawUrl.slice(0, queryStart),
      rawQuery: queryStart < 0 ? "" : rawUrl.slice(queryStart + 1),
      headers: raw.headers,
    };
    const url = requestUrl(rawUrl, raw.headers.host);
    if (method === "GET" && message.path === "/_local/health") return health(raw, response, message, url.searchParams);
    const target = String(raw.headers["x-amz-target"] ?? "");
    const service = target ? services.find((s) => target.startsWith(`${s.target}.`)) : undefined;
    if (target && !service) return unservedService(raw, response, message, url.searchParams, target);
    const protocol = protocolOf(service, method, message.path);
    try {
      const limit = bodyLimitOf(protocol);
      if (limit) message.body = await readBody(raw, limit.bytes, limit.tooLarge);
      const auth = await authenticate(
        message,
        url.searchParams,
        signingNameOf(protocol),
        DEFAULT_REGION,
        credentials,
        clock(),
      ).catch((error: unknown) => {
        throw error instanceof SignatureError
          ? authErrorOf(protocol, error, accessKeyIdOf(raw.headers.authorization))
          : error;
      });
      if (protocol.kind === "s3") requirePayloadHash(raw);
      if (!throttle.allow(serviceOf(protocol))) {
        traffic.throttled += 1;
        throw throttledErrorOf(protocol);
      }
      const request: AwsRequest = {
        method,
        url,
        path: message.path,
        headers: raw.headers,
        region: auth.region,
        signingService: signingNameOf(protocol),
        auth,
        body: message.body,
        raw,
      };
      if (protocol.kind === "json") return await handleJsonRpc(protocol.service, iam, request, response);
      if (protocol.kind === "runtime" && runtimeInvocation(method, message.path)?.kind === "async-invocations")
        return await handleAsyncInvocation(sageMaker, asyncInference, iam, request, response);
      if (protocol.kind === "runtime")
        return await handleRuntime(sageMaker, endpoints, metrics, iam, dataCapture, request, response);
      return await handleS3(objects, iam, request, response);
    } catch (error) {
      sendProtocolError(protocol, response, method, error);
    }
  };

  const server = http.createServer((raw, response) => {
    traffic.requests += 1;
    response.once("finish", () => {
      if (response.statusCode >= 500) traffic.failed += 1;
      else if (response.statusCode >= 400) traffic.refused += 1;
    });
    handle(raw, response).catch((error) => {
      console.error(JSON.stringify({ level: "error", msg: "local control plane", error: String(error) }));
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  server.keepAliveTimeout = 65_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port, options.host ?? "127.0.0.1", () => resolve());
    });
  } catch (error) {
    db.close();
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
      throw new Error(
        `Port ${options.port} is in use, so the local AWS control plane cannot listen there (is another npm start running?). Set LOCAL_AWS_PORT to a free port.`,
      );
    }
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}`;

  transforms.restore();
  const restored = endpoints.restore();
  asyncInference.start();
  backlogMetrics.start();
  if (options.waitForEndpoints !== false) await restored;

  return {
    url,
    port,
    dataDir,
    objects,
    registry,
    endpoints,
    alarms,
    transforms,
    builds,
    logs,
    asyncRequests,
    capture: dataCapture,
    backlogMetrics,
    credentials,
    resourcePrefix,
    bucket: fixture.bucket,
    executionRoleArn: iam.executionRoleArn,
    traffic,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      backlogMetrics.close();
      await builds.close();
      await asyncInference.close();
      await dataCapture.close();
      deployments.close();
      alarms.close();
      await transforms.close();
      await endpoints.close();
      db.close();
    },
  };
}

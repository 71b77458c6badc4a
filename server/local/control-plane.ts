import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { BuildRunner, LOCAL_ARTIFACT_BUCKET } from "./builds/build-runner.ts";
import { BuildStore } from "./builds/build-store.ts";
import { openLocalDatabase } from "./database.ts";
import { EndpointRunner, type GpuEmulation } from "./endpoints/endpoint-runner.ts";
import { EMULATE_GPU_ENV, SHORT_CAPACITY_ENV, shortCapacityTypes } from "./endpoints/instance-pools.ts";
import { ImageRegistry } from "./image-registry.ts";
import { LogStore } from "./log-store.ts";
import { MetricsStore } from "./metrics-store.ts";
import { ObjectStore } from "./object-store.ts";
import { SageMakerStore } from "./sagemaker-store.ts";
import { applicationAutoScalingService } from "./services/application-auto-scaling.ts";
import { cloudWatchService } from "./services/cloudwatch.ts";
import { cloudWatchLogsService } from "./services/cloudwatch-logs.ts";
import { codeBuildService } from "./services/codebuild.ts";
import { ecrService } from "./services/ecr.ts";
import { handleS3 } from "./services/s3.ts";
import { sageMakerService } from "./services/sagemaker.ts";
import { handleRuntime, isRuntimeRequest } from "./services/sagemaker-runtime.ts";
import { AwsError, throttled } from "./wire/aws-error.ts";
import { handleJsonRpc, type JsonService, sendJsonError } from "./wire/json-rpc.ts";
import { type AwsRequest, DEFAULT_REGION, parseAuthorization } from "./wire/request.ts";
import { Throttle } from "./wire/throttle.ts";

export const DEFAULT_LOCAL_AWS_PORT = 4599;

function gpuEmulationFrom(value: string | undefined): GpuEmulation {
  if (value === "0") return "off";
  if (value === "1") return "all";
  return "cpu-image";
}
export const REPO_ROOT = path.resolve(import.meta.dirname, "..", "..");

export interface ControlPlaneOptions {
  /** Where the database, object bytes, endpoint model directories and build scratch space live. */
  dataDir: string;
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
  /** Requests per second per service before ThrottlingException; default LOCAL_AWS_MAX_TPS, else unlimited. */
  maxRequestsPerSecond?: number;
}

export interface ControlPlane {
  url: string;
  port: number;
  dataDir: string;
  objects: ObjectStore;
  registry: ImageRegistry;
  endpoints: EndpointRunner;
  builds: BuildRunner;
  logs: LogStore;
  close(): Promise<void>;
}

/**
 * Starts the local AWS control plane: one loopback HTTP server that answers SageMaker, SageMaker Runtime,
 * CodeBuild, ECR, S3, CloudWatch, CloudWatch Logs and Application Auto Scaling in their wire protocols.
 * Services are told apart by `X-Amz-Target` (JSON protocols), the runtime's `/endpoints/<name>/invocations`
 * path, and otherwise S3.
 */
export async function startControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  const dataDir = path.resolve(options.dataDir);
  const db = openLocalDatabase(dataDir);
  const objects = new ObjectStore(db, dataDir);
  objects.createBucket(LOCAL_ARTIFACT_BUCKET);
  const registry = new ImageRegistry(db, REPO_ROOT);
  registry.ensureBaseImages();
  const logs = new LogStore(db);
  const metrics = new MetricsStore(db);
  const sageMaker = new SageMakerStore(db);
  const endpoints = new EndpointRunner(sageMaker, objects, registry, logs, dataDir, REPO_ROOT, {
    shortCapacity: options.shortCapacity ?? [...shortCapacityTypes(undefined, process.env[SHORT_CAPACITY_ENV])],
    gpuEmulation: options.gpuEmulation ?? gpuEmulationFrom(process.env[EMULATE_GPU_ENV]),
  });
  const buildStore = new BuildStore(db);
  let url = "";
  const builds = new BuildRunner(
    buildStore,
    registry,
    logs,
    objects,
    dataDir,
    REPO_ROOT,
    () => url,
    options.hfEndpoint ?? process.env.HF_ENDPOINT,
  );
  builds.failInterrupted();

  const services: JsonService[] = [
    sageMakerService(sageMaker, endpoints),
    codeBuildService(buildStore, builds),
    ecrService(registry),
    cloudWatchLogsService(logs),
    cloudWatchService(metrics),
    applicationAutoScalingService(db, sageMaker, endpoints),
  ];
  const throttle = new Throttle(options.maxRequestsPerSecond ?? (Number(process.env.LOCAL_AWS_MAX_TPS) || undefined));

  const handle = async (raw: IncomingMessage, response: ServerResponse) => {
    const requestUrl = new URL(raw.url ?? "/", "http://127.0.0.1");
    if (raw.method === "GET" && requestUrl.pathname === "/_local/health") {
      const text = JSON.stringify({ status: "ok", dataDir });
      response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      response.end(text);
      return;
    }
    const target = String(raw.headers["x-amz-target"] ?? "");
    const service = target ? services.find((s) => target.startsWith(`${s.target}.`)) : undefined;
    const auth = parseAuthorization(raw.headers.authorization);
    const request: AwsRequest = {
      method: raw.method ?? "GET",
      url: new URL(raw.url ?? "/", `http://${raw.headers.host ?? "127.0.0.1"}`),
      headers: raw.headers,
      region: auth?.region ?? DEFAULT_REGION,
      signingService: auth?.service ?? "",
      raw,
    };
    const contentType = service ? `application/x-amz-json-${service.version}` : "application/json";
    if (!auth) {
      raw.resume();
      return sendJsonError(
        response,
        contentType,
        new AwsError(
          "MissingAuthenticationTokenException",
          "Missing Authentication Token (a SigV4 Authorization header is required)",
          403,
        ),
      );
    }
    if (!throttle.allow(service?.target ?? request.signingService)) {
      raw.resume();
      return sendJsonError(response, contentType, throttled(), service?.queryCompatible);
    }
    if (target) {
      if (!service) {
        raw.resume();
        return sendJsonError(
          response,
          "application/json",
          new AwsError("UnknownOperationException", `${target} is not served locally`),
        );
      }
      return handleJsonRpc(service, request, response);
    }
    if (isRuntimeRequest(request)) return handleRuntime(sageMaker, endpoints, metrics, request, response);
    return handleS3(objects, request, response);
  };

  const server = http.createServer((raw, response) => {
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

  const restored = endpoints.restore();
  if (options.waitForEndpoints !== false) await restored;

  return {
    url,
    port,
    dataDir,
    objects,
    registry,
    endpoints,
    builds,
    logs,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await builds.close();
      await endpoints.close();
      db.close();
    },
  };
}

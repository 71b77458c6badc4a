import { readFileSync } from "node:fs";
import os from "node:os";
import { type BranchSchedule, readBranchSchedule } from "../contract/branch-schedule.ts";
import { defaultParallel } from "../contract/parallel-default.ts";
import { type RecordErrorMode, readRecordErrorMode } from "../contract/record-errors.ts";
import { readSemifEnvironment } from "../contract/semif-environment.ts";
import { type BatchSettings, MIB, readBatchSettings } from "./batch-settings.ts";
import { readingCacheEntries } from "./reading-cache-settings.ts";
import { readSystemOneSettings, type SystemOneSettings } from "./systemone-settings.ts";

/** Everything the adapter reads from its environment, parsed once at start. Names and defaults follow SemIf. */
export type AdapterConfig = {
  /** Address the HTTP server listens on (`ADAPTER_HOST`); the image sets 0.0.0.0, as SageMaker needs. */
  host: string;
  port: number;
  modelPath: string | null;
  /** ADAPTER_MODEL_SHA256: the sha256 the deployment pinned; the GGUF must hash to it or start-up fails. */
  modelSha256: string | null;
  /** What a relative ADAPTER_MODEL_PATH is resolved against: where the command was typed (npm's INIT_CWD). */
  modelPathBase: string;
  modelDir: string;
  gpu: "cuda" | false;
  threads: number;
  parallel: number;
  /** ADAPTER_BRANCH_SCHEDULE: a request's branches one after another on its sequence, or batched over lanes. */
  branchSchedule: BranchSchedule;
  readingCacheEntries: number;
  promptTemplate: "auto" | "fallback";
  maxTokens: number;
  maxRequestTokens: number;
  maxSharedDecisions: number;
  /** SEMIF_MAX_BODY_BYTES, raised in a transform job to its MaxPayloadInMB (SAGEMAKER_MAX_PAYLOAD_IN_MB). */
  maxBodyBytes: number;
  maxInFlight: number;
  /** Set in a SageMaker Batch Transform job (SAGEMAKER_BATCH=true), else null. */
  batch: BatchSettings | null;
  /** ADAPTER_RECORD_ERRORS: whether a refused record of a JSON Lines body fails the body or is answered inline. */
  recordErrors: RecordErrorMode;
  temperature: number;
  /** ADAPTER_BODY_TIMEOUT_MS: how long a request body may take to arrive after its headers (else 408). */
  bodyTimeoutMs: number;
  /** Request bodies received at once, over all clients: max(8, 4 x the effective in-flight limit). */
  maxBodyReaders: number;
  /** ADAPTER_MAX_BODIES_PER_PEER: request bodies one client address may be sending at once. */
  maxBodyReadersPerPeer: number;
} & SystemOneSettings;

type Env = Record<string, string | undefined>;

function positiveInteger(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

function port(env: Env): number {
  const raw = env.SAGEMAKER_BIND_TO_PORT;
  if (raw === undefined || raw === "") return 8080;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new Error(`SAGEMAKER_BIND_TO_PORT must be a port number (0 picks a free one), got "${raw}"`);
  }
  return value;
}

function modelSha256(env: Env): string | null {
  const raw = env.ADAPTER_MODEL_SHA256 ?? "";
  if (raw === "") return null;
  if (!/^[0-9a-fA-F]{64}$/.test(raw)) throw new Error(`ADAPTER_MODEL_SHA256 must be 64 hex characters, got "${raw}"`);
  return raw.toLowerCase();
}

function host(env: Env): string {
  const raw = env.ADAPTER_HOST ?? "";
  if (raw === "") return "127.0.0.1";
  if (!/^[0-9A-Za-z.:-]+$/.test(raw)) throw new Error(`ADAPTER_HOST must be an IP address or host name, got "${raw}"`);
  return raw;
}

/** CPUs granted by the cgroup (v2 `cpu.max`, else v1 CFS quota), or null when unlimited or unknown. */
export function cgroupCpuQuota(read: (path: string) => string | null = readOptional): number | null {
  const v2 = read("/sys/fs/cgroup/cpu.max");
  if (v2 !== null) {
    const [quota, period] = v2.trim().split(/\s+/);
    if (quota === "max" || quota === undefined || period === undefined) return null;
    return Math.max(1, Math.ceil(Number(quota) / Number(period)));
  }
  const quota = read("/sys/fs/cgroup/cpu/cpu.cfs_quota_us");
  const period = read("/sys/fs/cgroup/cpu/cpu.cfs_period_us");
  if (quota === null || period === null || Number(quota) <= 0) return null;
  return Math.max(1, Math.ceil(Number(quota) / Number(period)));
}

function readOptional(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

export function defaultThreads(): number {
  return Math.min(cgroupCpuQuota() ?? Number.POSITIVE_INFINITY, os.availableParallelism());
}

export function readConfig(env: Env = process.env): AdapterConfig {
  const gpu = env.ADAPTER_GPU ?? "";
  if (gpu !== "" && gpu !== "cuda" && gpu !== "cpu")
    throw new Error(`ADAPTER_GPU must be "cuda" or "cpu", got "${gpu}"`);
  const promptTemplate = env.ADAPTER_PROMPT_TEMPLATE ?? "auto";
  if (promptTemplate !== "auto" && promptTemplate !== "fallback") {
    throw new Error(`ADAPTER_PROMPT_TEMPLATE must be "auto" or "fallback", got "${promptTemplate}"`);
  }
  const semif = readSemifEnvironment(env);
  const { maxInFlight } = semif;
  const parallel = positiveInteger(env, "ADAPTER_PARALLEL", defaultParallel(gpu === "cuda" ? "cuda" : "cpu"));
  const maxBodyReaders = Math.max(8, 4 * Math.max(maxInFlight, parallel));
  const batch = readBatchSettings(env, semif.maxBodyBytes);
  return {
    host: host(env),
    port: port(env),
    modelPath: env.ADAPTER_MODEL_PATH || null,
    modelSha256: modelSha256(env),
    modelPathBase: env.INIT_CWD || process.cwd(),
    modelDir: env.SM_MODEL_DIR || "/opt/ml/model",
    gpu: gpu === "cuda" ? "cuda" : false,
    threads: positiveInteger(env, "ADAPTER_THREADS", defaultThreads()),
    parallel,
    branchSchedule: readBranchSchedule(env.ADAPTER_BRANCH_SCHEDULE, gpu === "cuda" ? "cuda" : "cpu"),
    readingCacheEntries: readingCacheEntries(env),
    promptTemplate,
    ...semif,
    maxBodyBytes: batch ? Math.max(semif.maxBodyBytes, batch.maxPayloadMb * MIB) : semif.maxBodyBytes,
    batch,
    recordErrors: readRecordErrorMode(env.ADAPTER_RECORD_ERRORS),
    bodyTimeoutMs: positiveInteger(env, "ADAPTER_BODY_TIMEOUT_MS", 5000),
    maxBodyReaders,
    maxBodyReadersPerPeer: Math.min(
      maxBodyReaders,
      positiveInteger(env, "ADAPTER_MAX_BODIES_PER_PEER", Math.max(1, maxBodyReaders / 2)),
    ),
    ...readSystemOneSettings(env),
  };
}

/**
 * What SageMaker Batch Transform tells the container (its "Use your own inference code" page): `SAGEMAKER_BATCH`
 * is `true` in a transform job, and `SAGEMAKER_MAX_PAYLOAD_IN_MB` is set when the job sets MaxPayloadInMB.
 */
export type BatchSettings = {
  /** The largest request body a transform job sends, in MiB; the body limit is raised to it. */
  maxPayloadMb: number;
};

export const MIB = 1024 * 1024;

/** The MaxPayloadInMB the adapter announces on GET /execution-parameters: its body limit, at least 1 MiB. */
export function announcedPayloadMb(maxBodyBytes: number): number {
  return Math.max(1, Math.floor(maxBodyBytes / MIB));
}

/** The batch settings of `env`, or null outside a transform job; throws on a payload size it cannot serve. */
export function readBatchSettings(env: Record<string, string | undefined>, semifMaxBodyBytes: number) {
  if (env.SAGEMAKER_BATCH !== "true") return null;
  const raw = env.SAGEMAKER_MAX_PAYLOAD_IN_MB;
  if (raw === undefined || raw === "") return { maxPayloadMb: announcedPayloadMb(semifMaxBodyBytes) };
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 100) {
    // 0 means bodies of any size in chunked encoding; the adapter needs a Content-Length to bound what it reads.
    throw new Error(`SAGEMAKER_MAX_PAYLOAD_IN_MB must be an integer from 1 to 100 (MaxPayloadInMB), got "${raw}"`);
  }
  return { maxPayloadMb: value } satisfies BatchSettings;
}

import type { PickedInstance } from "../endpoints/endpoint-runner.ts";
import type { MetricsStore } from "../metrics-store.ts";

/** A shadow's copy may take as long as a real-time invocation: 1 minute. */
const SHADOW_TIMEOUT_MS = 60_000;

export interface ShadowCopy {
  endpoint: string;
  /** The shadow instance the runner drew for this invocation (PickedInstance.mirror); released once answered. */
  mirror: PickedInstance;
  headers: Record<string, string>;
  body: Buffer;
  metrics: MetricsStore;
  /** The shadow's answer when it is a success, for data capture under the shadow variant. */
  onAnswer: (output: { body: Buffer; contentType: string }) => void;
}

/**
 * Sends a copy of an invocation to the shadow variant, as the Developer Guide's "Shadow tests" describes it:
 * SageMaker "routes a copy of the inference requests to it in real time within the same endpoint. Only the
 * responses of the production variant are returned to the calling application." The caller never waits for this
 * promise, and it never rejects: the shadow's answer, error or timeout is recorded in the shadow variant's metrics
 * (an unreachable container as a 5xx, as ModelError counts a production one) and goes nowhere else.
 */
export async function sendShadowCopy(copy: ShadowCopy): Promise<void> {
  const { mirror } = copy;
  const started = performance.now();
  let status = 500;
  try {
    const answer = await fetch(`${mirror.url}/invocations`, {
      method: "POST",
      headers: copy.headers,
      body: new Uint8Array(copy.body),
      signal: AbortSignal.timeout(SHADOW_TIMEOUT_MS),
    });
    const bytes = Buffer.from(await answer.arrayBuffer());
    status = answer.status;
    if (status >= 200 && status <= 299) {
      copy.onAnswer({ body: bytes, contentType: answer.headers.get("content-type") ?? "application/json" });
    }
  } catch {
    // Unreachable, reset or past its minute: counted below as the 5xx it is, never reported to the caller.
  } finally {
    mirror.release();
  }
  copy.metrics.recordInvocation(
    copy.endpoint,
    mirror.variant,
    status,
    Math.round((performance.now() - started) * 1000),
  );
}

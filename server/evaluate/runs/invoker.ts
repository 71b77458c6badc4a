import type { EvaluationItemKey } from "../../invoke/async-requests.ts";

/**
 * What the evaluation runner needs from an endpoint: send one JSON body, get the container's status, body and
 * the client-side time it took. A 503 "busy" comes back as status 503 (the runner retries it with jitter);
 * a transport failure throws.
 */
export interface InvokeOutcome {
  status: number;
  body: unknown;
  latencyMs: number;
}

/** Which run's item a body is for (an asynchronous request is recorded with it), and the run's shutdown signal. */
export interface InvokeContext {
  item: EvaluationItemKey;
  signal?: AbortSignal;
}

export type EndpointInvoker = (endpointName: string, body: unknown, context: InvokeContext) => Promise<InvokeOutcome>;

/** An invoker that posts to `/invocations` of a base URL per endpoint name (loopback adapters, tests, bench). */
export function httpInvoker(baseUrlOf: (endpointName: string) => string): EndpointInvoker {
  return async (endpointName, body, { signal }) => {
    const started = performance.now();
    const response = await fetch(new URL("/invocations", baseUrlOf(endpointName)), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
    const text = await response.text();
    const latencyMs = performance.now() - started;
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // A non-JSON body is kept as text: the runner reports it as the error message.
    }
    return { status: response.status, body: parsed, latencyMs };
  };
}

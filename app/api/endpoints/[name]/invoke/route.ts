import { consoleApi } from "@/contract/api.ts";
import { invokeErrorDetailsSchema } from "@/contract/invoke/invoke.ts";
import { invokeHeaderNames, invokeHeaders } from "@/contract/invoke/invoke-headers.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { consoleContext } from "@/server/context.ts";
import { existingEndpointName } from "@/server/endpoints/endpoint-name.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { AppError } from "@/server/http/app-error.ts";
import { readJson, route } from "@/server/http/route.ts";
import { recordInvocation } from "@/server/invoke/invocation-log.ts";
import { invokeEndpointBytes, invokeEndpointStream } from "@/server/invoke/invoke.ts";

/**
 * Playground proxy: `{body, stream?}`. Both ways the container's bytes and Content-Type pass through unchanged (SSE
 * for streamed chat), with the same metadata headers (invoke-headers.ts). Errors carry the container's own status
 * and message. Every call is recorded, under the endpoint's own spelling of its name (names ignore case). A plain call
 * gets a fresh InferenceId, which data capture records and the answer's x-inference-id names, so its decision can be
 * labelled later.
 */
export const POST = route(async (request, { params }: { params: Promise<{ name: string }> }) => {
  const principal = await requireRole(request, "viewer");
  const asked = await endpointNameParam(params);
  const invoke = await readJson(request, consoleApi.invoke.body);
  const { aws, store } = consoleContext();
  const name = await existingEndpointName(aws.sageMaker, asked);
  const requestBody = JSON.stringify(invoke.body);
  const started = performance.now();
  const record = (status: number, retries: number, error: string | null) =>
    recordInvocation(store, {
      endpointName: name,
      stream: invoke.stream,
      status,
      latencyMs: Math.round((performance.now() - started) * 100) / 100,
      retries,
      requestBody,
      error,
      user: principal.name,
    });
  try {
    if (invoke.stream) {
      const { stream, ...metadata } = await invokeEndpointStream(aws.runtime, name, invoke.body);
      await record(200, metadata.retries, null);
      return new Response(stream, { headers: invokeHeaders(metadata) });
    }
    const inferenceId = crypto.randomUUID();
    const answer = await invokeEndpointBytes(aws.runtime, name, invoke.body, undefined, undefined, inferenceId);
    const { bytes, ...metadata } = answer;
    await record(200, metadata.retries, null);
    const headers = invokeHeaders(metadata);
    headers.set(invokeHeaderNames.inferenceId, inferenceId);
    return new Response(new Uint8Array(bytes), { status: consoleApi.invoke.status, headers });
  } catch (error) {
    if (error instanceof AppError) {
      const retries = invokeErrorDetailsSchema.safeParse(error.details).data?.retries ?? 0;
      await record(error.status, retries, error.message);
    }
    throw error;
  }
});

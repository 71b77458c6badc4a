import { consoleApi } from "@/contract/api.ts";
import { invokeErrorDetailsSchema } from "@/contract/invoke/invoke.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { AppError } from "@/server/http/app-error.ts";
import { readJson, reply, route } from "@/server/http/route.ts";
import { recordInvocation } from "@/server/invoke/invocation-log.ts";
import { invokeEndpoint, invokeEndpointStream } from "@/server/invoke/invoke.ts";

/**
 * Playground proxy: `{body, stream?}`. Non-streaming answers InvokeResult; streaming passes the container's bytes
 * through (SSE for chat). Errors carry the container's own status and message. Every call is recorded.
 */
export const POST = route(async (request, { params }: { params: Promise<{ name: string }> }) => {
  const principal = await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const invoke = await readJson(request, consoleApi.invoke.body);
  const { aws, db } = consoleContext();
  const requestBody = JSON.stringify(invoke.body);
  const started = performance.now();
  const record = (status: number, retries: number, error: string | null) =>
    recordInvocation(db, {
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
      const opened = await invokeEndpointStream(aws.runtime, name, invoke.body);
      record(200, opened.retries, null);
      return new Response(opened.stream, {
        headers: {
          "content-type": opened.contentType ?? "text/event-stream",
          "cache-control": "no-store",
          "x-busy-retries": String(opened.retries),
        },
      });
    }
    const result = await invokeEndpoint(aws.runtime, name, invoke.body);
    record(200, result.retries, null);
    return reply(consoleApi.invoke, result);
  } catch (error) {
    if (error instanceof AppError) {
      const retries = invokeErrorDetailsSchema.safeParse(error.details).data?.retries ?? 0;
      record(error.status, retries, error.message);
    }
    throw error;
  }
});

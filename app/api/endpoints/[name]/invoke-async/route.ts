import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { AppError } from "@/server/http/app-error.ts";
import { readJson, reply, route } from "@/server/http/route.ts";
import { sendAsyncRequest } from "@/server/invoke/async-requests.ts";
import { recordInvocation } from "@/server/invoke/invocation-log.ts";
import { asyncOutputPaths } from "@/server/invoke/invoke-async.ts";

/**
 * Playground proxy for asynchronous endpoints: the body goes to `async/<endpoint>/in/<uuid>.json` in the artifact
 * bucket, then InvokeEndpointAsync queues it; the answer is fetched with GET .../invoke-async/[inferenceId].
 * Every submission is recorded with the endpoint's invocations.
 */
export const POST = route(async (request, { params }: { params: Promise<{ name: string }> }) => {
  const principal = await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const invoke = await readJson(request, consoleApi.invokeAsync.body);
  const { aws, store, settings } = consoleContext();
  if (!settings.artifactBucket) {
    throw new AppError(
      "unavailable",
      "Asynchronous requests are written to the artifact bucket; set CONSOLE_ARTIFACT_BUCKET for the console.",
    );
  }
  const requestBody = JSON.stringify(invoke.body);
  const started = performance.now();
  const record = (status: number, error: string | null) =>
    recordInvocation(store, {
      endpointName: name,
      stream: false,
      status,
      latencyMs: Math.round((performance.now() - started) * 100) / 100,
      retries: 0,
      requestBody,
      error,
      user: principal.name,
    });
  try {
    const paths = await asyncOutputPaths(aws.sageMaker, name);
    const queued = await sendAsyncRequest(aws, store, {
      bucket: settings.artifactBucket,
      endpointName: name,
      paths,
      body: invoke.body,
      sender: { kind: "playground", user: principal.name },
    });
    await record(202, null);
    return reply(consoleApi.invokeAsync, queued);
  } catch (error) {
    if (error instanceof AppError) await record(error.status, error.message);
    throw error;
  }
});

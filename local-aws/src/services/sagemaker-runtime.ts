import type { ServerResponse } from "node:http";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import type { DataCapture } from "../capture/data-capture.ts";
import { type EndpointRunner, endpointLogGroup, type PickedInstance } from "../endpoints/endpoint-runner.ts";
import type { RequestAuthorizer } from "../iam/request-authorizer.ts";
import type { MetricsStore } from "../metrics-store.ts";
import type { SageMakerStore } from "../sagemaker-store.ts";
import { AwsError } from "../wire/aws-error.ts";
import { sendJsonError } from "../wire/json-rpc.ts";
import { runtimeInvocation } from "../wire/protocols.ts";
import { type AwsRequest, decodeUriComponent, LOCAL_ACCOUNT_ID } from "../wire/request.ts";
import { notServedLocally } from "../wire/served-members.ts";
import { invocableEndpoint, realTimeInvocationInput } from "./sagemaker-runtime-rules.ts";
import { sendShadowCopy } from "./shadow-invocation.ts";

/** How long a container may take to answer /invocations (real-time endpoints): 1 minute. */
const INVOKE_TIMEOUT_MS = 60_000;
const codec = new EventStreamCodec(toUtf8, fromUtf8);

/**
 * SageMaker Runtime (REST JSON): InvokeEndpoint proxies to one local instance's `/invocations`;
 * InvokeEndpointWithResponseStream re-frames the container's body as `PayloadPart` events.
 * A container answer outside 2xx becomes `ModelError` (424) with the original status and message.
 * With a shadow variant, the invocations the runner draws are copied to it in the background (shadow-invocation.ts).
 */
export async function handleRuntime(
  store: SageMakerStore,
  runner: EndpointRunner,
  metrics: MetricsStore,
  iam: RequestAuthorizer,
  capture: DataCapture,
  request: AwsRequest,
  response: ServerResponse,
) {
  const { name: rawName = "", kind } = runtimeInvocation(request.method, request.path) ?? {};
  let name = rawName;
  let picked: PickedInstance | undefined;
  let started = 0;
  try {
    name = decodeUriComponent(rawName);
    const operation = kind === "invocations" ? "InvokeEndpoint" : "InvokeEndpointWithResponseStream";
    iam.runtime(
      request.auth.principal,
      request.region,
      operation,
      name,
      header(request, "x-amzn-sagemaker-target-model"),
    );
    const body = request.body ?? Buffer.alloc(0);
    const { TargetVariant: target } = realTimeInvocationInput(operation, name, request.headers, body);
    const invocable = invocableEndpoint(store, name, "real-time");
    if (target && !runner.hasVariant(name, target)) {
      if (invocable.endpoint.shadowVariants?.some((shadow) => shadow.VariantName === target)) {
        throw notServedLocally(`TargetVariant ${target} (the endpoint's shadow variant)`, "ValidationError");
      }
      throw new AwsError("ValidationError", `The variant ${target} is not present on endpoint ${name}.`);
    }
    picked = await runner.pick(name, target);
    if (!picked)
      throw new AwsError("ServiceUnavailable", `Endpoint ${name} has no running instance right now; retry.`, 503);
    if (picked.mirror) {
      const shadow = picked.mirror.variant;
      void sendShadowCopy({
        endpoint: name,
        mirror: picked.mirror,
        headers: forwardedHeaders(request),
        body,
        metrics,
        onAnswer: (output) => captureInvocation(store, capture, invocable, request, name, shadow, body, output),
      });
    }
    started = performance.now();
    let container: Response;
    try {
      container = await fetch(`${picked.url}/invocations`, {
        method: "POST",
        headers: forwardedHeaders(request),
        body: new Uint8Array(body),
        signal: kind === "invocations" ? AbortSignal.timeout(INVOKE_TIMEOUT_MS) : undefined,
      });
    } catch (error) {
      // Past the 60 seconds a real-time invocation may take, SageMaker answers ModelError with status 0 and this
      // message ("The timeout for the container to respond to inference requests to /invocations is 1 minute").
      const timedOut = (error as Error).name === "TimeoutError";
      throw modelError(
        picked,
        name,
        request.region,
        0,
        timedOut
          ? `Your invocation timed out while waiting for a response from container primary. Review the latency metrics for each container in Amazon CloudWatch, resolve the issue, and try again.`
          : `the container could not be reached (${(error as Error).message})`,
      );
    }
    if (container.status < 200 || container.status > 299) {
      const text = await container.text();
      throw modelError(picked, name, request.region, container.status, text);
    }
    // Every AWS answer carries the request's id (the SDK reads it into $metadata.requestId), an invocation's too.
    const responseHeaders: Record<string, string> = {
      "x-amzn-invoked-production-variant": picked.variant,
      "x-amzn-requestid": crypto.randomUUID(),
    };
    const customAttributes = container.headers.get("x-amzn-sagemaker-custom-attributes");
    if (customAttributes) responseHeaders["x-amzn-sagemaker-custom-attributes"] = customAttributes;
    const contentType = container.headers.get("content-type") ?? "application/json";
    if (kind === "invocations") {
      const bytes = Buffer.from(await container.arrayBuffer());
      metrics.recordInvocation(name, picked.variant, 200, Math.round((performance.now() - started) * 1000));
      response.writeHead(200, { ...responseHeaders, "content-type": contentType, "content-length": bytes.length });
      response.end(bytes);
      captureInvocation(store, capture, invocable, request, name, picked.variant, body, { body: bytes, contentType });
      return;
    }
    response.writeHead(200, {
      ...responseHeaders,
      "content-type": "application/vnd.amazon.eventstream",
      "x-amzn-sagemaker-content-type": contentType,
    });
    const streamed = await streamPayloadParts(container, response);
    captureInvocation(store, capture, invocable, request, name, picked.variant, body, { body: streamed, contentType });
    metrics.recordInvocation(name, picked.variant, 200, Math.round((performance.now() - started) * 1000));
  } catch (error) {
    if (picked && error instanceof AwsError) {
      const status = error.code === "ModelError" ? Number(error.fields.OriginalStatusCode) || 500 : error.status;
      metrics.recordInvocation(
        name,
        picked.variant,
        status,
        started ? Math.round((performance.now() - started) * 1000) : null,
      );
    }
    if (response.headersSent) {
      response.end();
      return;
    }
    sendJsonError(response, "application/json", error);
  } finally {
    picked?.release();
  }
}

function header(request: AwsRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

function forwardedHeaders(request: AwsRequest): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": header(request, "content-type") ?? "application/octet-stream",
  };
  const accept = header(request, "x-amzn-sagemaker-accept") ?? header(request, "accept");
  if (accept) headers.accept = accept;
  const attributes = header(request, "x-amzn-sagemaker-custom-attributes");
  if (attributes) headers["x-amzn-sagemaker-custom-attributes"] = attributes;
  return headers;
}

function modelError(picked: PickedInstance, endpoint: string, region: string, status: number, text: string): AwsError {
  const group = endpointLogGroup(endpoint);
  const side = status >= 400 && status < 500 ? "client" : "server";
  return new AwsError(
    "ModelError",
    `Received ${side} error (${status}) from primary with message "${text}". See https://${region}.console.aws.amazon.com/cloudwatch/home?region=${region}#logEventViewer:group=${group} in account ${LOCAL_ACCOUNT_ID} for more information.`,
    424,
    {
      OriginalStatusCode: status,
      OriginalMessage: text,
      LogStreamArn: `arn:aws:logs:${region}:${LOCAL_ACCOUNT_ID}:log-group:${group}:log-stream:${picked.logStream}`,
    },
  );
}

/** The invocation, for the endpoint configuration's DataCaptureConfig, once the caller has its answer. */
function captureInvocation(
  store: SageMakerStore,
  capture: DataCapture,
  { endpoint, config }: ReturnType<typeof invocableEndpoint>,
  request: AwsRequest,
  name: string,
  variant: string,
  input: Buffer,
  output: { body: Buffer; contentType: string },
) {
  if (!config?.DataCaptureConfig) return;
  capture.record({
    endpoint: name,
    variant,
    config: config.DataCaptureConfig,
    executionRoleArn: store.executionRoleArnOf(endpoint, variant),
    input: { body: input, contentType: header(request, "content-type") ?? "application/octet-stream" },
    output,
    inferenceId: header(request, "x-amzn-sagemaker-inference-id"),
  });
}

/** Re-frames the container's body as PayloadPart events; answers the whole body, for data capture. */
async function streamPayloadParts(container: Response, response: ServerResponse): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const write = (message: Parameters<typeof codec.encode>[0]) =>
    new Promise<void>((resolve) => {
      if (!response.write(codec.encode(message))) response.once("drain", resolve);
      else resolve();
    });
  try {
    for await (const chunk of container.body ?? []) {
      chunks.push(chunk as Uint8Array);
      await write({
        headers: {
          ":event-type": { type: "string", value: "PayloadPart" },
          ":message-type": { type: "string", value: "event" },
          ":content-type": { type: "string", value: "application/octet-stream" },
        },
        body: chunk as Uint8Array,
      });
    }
  } catch (error) {
    await write({
      headers: {
        ":exception-type": { type: "string", value: "ModelStreamError" },
        ":message-type": { type: "string", value: "exception" },
        ":content-type": { type: "string", value: "application/json" },
      },
      body: fromUtf8(
        JSON.stringify({
          Message: `The container's stream broke: ${(error as Error).message}`,
          ErrorCode: "StreamBroken",
        }),
      ),
    });
  }
  response.end();
  return Buffer.concat(chunks);
}

import type { IncomingHttpHeaders } from "node:http";
import type { SageMakerStore } from "../sagemaker-store.ts";
import { AwsError } from "../wire/aws-error.ts";
import { sageMakerRuntimeInputBindings, sageMakerRuntimeInputShapes } from "../wire/generated/sagemaker-runtime.ts";
import { LOCAL_ACCOUNT_ID } from "../wire/request.ts";
import { restInput } from "../wire/rest-binding.ts";

/**
 * SageMaker Runtime's rules for its invocations and for invoking an asynchronous endpoint: the header-bound
 * members, bound and checked as the service model defines them (generated: ../wire/generated/sagemaker-runtime.ts),
 * then what the API reference and the Asynchronous Inference guide state in prose. AWS documents no wording for the
 * prose rules; the messages say what the documentation says.
 */

/** "The inline payload can be up to 128,000 bytes" (InvokeEndpointAsync, Body). */
export const MAX_INLINE_ASYNC_BODY_BYTES = 128_000;
/** "requests with large payload sizes (up to 1GB)" (Asynchronous inference). */
export const MAX_ASYNC_INPUT_BYTES = 1024 ** 3;
/** RequestTTLSeconds: "The default is 6 hours, or 21,600 seconds." */
export const DEFAULT_REQUEST_TTL_SECONDS = 21_600;
/** InvocationTimeoutSeconds: "The default is 15 minutes, or 900 seconds." */
export const DEFAULT_INVOCATION_TIMEOUT_SECONDS = 900;

export interface AsyncInvocationInput {
  EndpointName: string;
  ContentType?: string;
  Accept?: string;
  CustomAttributes?: string;
  InferenceId?: string;
  InputLocation?: string;
  RequestTTLSeconds?: number;
  InvocationTimeoutSeconds?: number;
}

type Invocation = keyof typeof sageMakerRuntimeInputShapes;

/**
 * An invocation's input from its path and headers, as the service model binds them, and (real-time only: the
 * asynchronous body is checked by the prose rules below) its body, checked against the model's constraints.
 */
function invocationInput(
  operation: Invocation,
  endpointName: string,
  headers: IncomingHttpHeaders,
  body?: Buffer,
): Record<string, unknown> {
  return restInput(
    sageMakerRuntimeInputShapes[operation],
    sageMakerRuntimeInputBindings[operation],
    { labels: { EndpointName: endpointName }, query: new URLSearchParams(), headers, payload: body },
    "ValidationError",
  );
}

/**
 * A real-time invocation's input from its path, headers and body, checked against the service model's constraints
 * (the body at most 6 MB, header values' lengths and patterns) before anything runs.
 */
export function realTimeInvocationInput(
  operation: "InvokeEndpoint" | "InvokeEndpointWithResponseStream",
  endpointName: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
): { TargetVariant?: string } {
  return invocationInput(operation, endpointName, headers, body) as { TargetVariant?: string };
}

/**
 * The operation's input from its headers, checked against the model's constraints and the prose rules on the body:
 * exactly one of Body and InputLocation, an inline Body of at most 128,000 bytes.
 */
export function asyncInvocationInput(
  endpointName: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
): AsyncInvocationInput {
  const input = invocationInput("InvokeEndpointAsync", endpointName, headers);
  const hasLocation = input.InputLocation !== undefined;
  if (hasLocation === body.length > 0) {
    throw new AwsError(
      "ValidationError",
      "Body and InputLocation are mutually exclusive. Provide exactly one of them.",
    );
  }
  if (body.length > MAX_INLINE_ASYNC_BODY_BYTES) {
    throw new AwsError(
      "ValidationError",
      `The inline payload is ${body.length} bytes; Body can be up to ${MAX_INLINE_ASYNC_BODY_BYTES} bytes. Upload larger payloads to Amazon S3 and pass InputLocation.`,
    );
  }
  if (input.S3OutputPathExtension !== undefined || input.Filename !== undefined) {
    throw new AwsError(
      "ValidationError",
      "S3OutputPathExtension and Filename are not served by the local control plane; results go to the endpoint configuration's S3OutputPath as <inference-id>.out.",
    );
  }
  return input as unknown as AsyncInvocationInput;
}

/**
 * The endpoint an invocation names, once it exists, is InService (or Updating) and takes this kind of invocation:
 * "The presence of an AsyncInferenceConfig ... implies that the endpoint can only receive asynchronous
 * invocations" (CreateEndpointConfig), and InvokeEndpointAsync needs one.
 */
export function invocableEndpoint(store: SageMakerStore, name: string, kind: "real-time" | "asynchronous") {
  const endpoint = store.endpoint(name);
  if (!endpoint) throw new AwsError("ValidationError", `Endpoint ${name} of account ${LOCAL_ACCOUNT_ID} not found.`);
  const config = store.endpointConfig(endpoint.configName);
  const isAsync = Boolean(config?.AsyncInferenceConfig);
  if (isAsync && kind === "real-time") {
    throw new AwsError(
      "ValidationError",
      `Endpoint ${name} of account ${LOCAL_ACCOUNT_ID} is an asynchronous inference endpoint (its endpoint configuration has an AsyncInferenceConfig) and can only receive asynchronous invocations: use InvokeEndpointAsync.`,
    );
  }
  if (!isAsync && kind === "asynchronous") {
    throw new AwsError(
      "ValidationError",
      `Endpoint ${name} of account ${LOCAL_ACCOUNT_ID} is not an asynchronous inference endpoint (its endpoint configuration has no AsyncInferenceConfig): use InvokeEndpoint.`,
    );
  }
  if (endpoint.status !== "InService" && endpoint.status !== "Updating") {
    throw new AwsError(
      "ValidationError",
      `Endpoint ${name} is in ${endpoint.status} status; it accepts invocations once InService.`,
    );
  }
  return { endpoint, config };
}

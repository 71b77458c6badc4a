import type { ServerResponse } from "node:http";
import type { AsyncInference } from "../async/async-inference.ts";
import type { RequestAuthorizer } from "../iam/request-authorizer.ts";
import type { SageMakerStore } from "../sagemaker-store.ts";
import { sendJsonError } from "../wire/json-rpc.ts";
import { runtimeInvocation } from "../wire/protocols.ts";
import { type AwsRequest, decodeUriComponent } from "../wire/request.ts";
import { asyncInvocationInput, invocableEndpoint } from "./sagemaker-runtime-rules.ts";

/**
 * SageMaker Runtime's InvokeEndpointAsync (REST JSON, `POST /endpoints/<name>/async-invocations`): the request is
 * queued and answered at once with 202, `InferenceId` in the JSON body and the locations in the
 * `X-Amzn-SageMaker-OutputLocation` and `X-Amzn-SageMaker-FailureLocation` headers, as the SDK's model binds them.
 */
export async function handleAsyncInvocation(
  store: SageMakerStore,
  queue: AsyncInference,
  iam: RequestAuthorizer,
  request: AwsRequest,
  response: ServerResponse,
) {
  try {
    const name = decodeUriComponent(runtimeInvocation(request.method, request.path)?.name ?? "");
    iam.runtime(request.auth.principal, request.region, "InvokeEndpointAsync", name, undefined);
    const body = request.body ?? Buffer.alloc(0);
    const input = asyncInvocationInput(name, request.headers, body);
    const { endpoint } = invocableEndpoint(store, name, "asynchronous");
    const queued = queue.submit({ ...input, EndpointName: endpoint.name }, body.length > 0 ? body : null);
    const text = JSON.stringify({ InferenceId: queued.inferenceId });
    const headers: Record<string, string | number> = {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
      "x-amzn-requestid": crypto.randomUUID(),
    };
    if (queued.outputLocation) headers["x-amzn-sagemaker-outputlocation"] = queued.outputLocation;
    if (queued.failureLocation) headers["x-amzn-sagemaker-failurelocation"] = queued.failureLocation;
    response.writeHead(202, headers);
    response.end(text);
  } catch (error) {
    sendJsonError(response, "application/json", error);
  }
}

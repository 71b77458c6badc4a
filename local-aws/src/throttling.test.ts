import { ListBucketsCommand, S3Client } from "@aws-sdk/client-s3";
import { ListEndpointsCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { InvokeEndpointCommand, SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { afterEach, describe, expect, it } from "vitest";
import { localClientConfig } from "./stack.ts";
import { throttledPlanes } from "./test-support/throttled-plane.ts";

/**
 * `LOCAL_AWS_MAX_TPS` throttles each service in its own protocol's words (issue 20, item 3), so SDK clients parse
 * the answer and retry: S3 503 SlowDown (XML), the JSON services and SageMaker Runtime ThrottlingException.
 * The control plane's clock stands still here, so a throttling window ends only when the test says.
 */
const planes = throttledPlanes();
afterEach(() => planes.closeAll());

describe("beyond LOCAL_AWS_MAX_TPS", () => {
  it("each service answers as its AWS counterpart does", async () => {
    const now = Date.now();
    const limited = await planes.start(() => now);
    const s3 = new S3Client({ ...localClientConfig(limited), forcePathStyle: true });
    const sageMaker = new SageMakerClient(localClientConfig(limited));
    const runtime = new SageMakerRuntimeClient(localClientConfig(limited));
    const invoke = () =>
      runtime.send(
        new InvokeEndpointCommand({ EndpointName: "none", Body: Buffer.from("{}"), ContentType: "application/json" }),
      );

    await s3.send(new ListBucketsCommand({}));
    await expect(s3.send(new ListBucketsCommand({}))).rejects.toMatchObject({
      name: "SlowDown",
      message: "Please reduce your request rate.",
      $metadata: { httpStatusCode: 503 },
    });
    await sageMaker.send(new ListEndpointsCommand({}));
    await expect(sageMaker.send(new ListEndpointsCommand({}))).rejects.toMatchObject({
      name: "ThrottlingException",
      $metadata: { httpStatusCode: 400 },
    });
    await expect(invoke()).rejects.toMatchObject({ name: "ValidationError" });
    await expect(invoke()).rejects.toMatchObject({ name: "ThrottlingException", $metadata: { httpStatusCode: 400 } });
    expect(limited.traffic.throttled).toBe(3);
  });
});

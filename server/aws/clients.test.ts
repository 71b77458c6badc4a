import { ListEndpointsCommand } from "@aws-sdk/client-sagemaker";
import { InvokeEndpointCommand } from "@aws-sdk/client-sagemaker-runtime";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAwsClients, destroyAwsClients } from "./clients.ts";

type Captured = { hostname?: string; port?: number; path?: string };

/** Stops a command right before it would leave the process and reports where it was going. */
function captureTarget(client: { middlewareStack: { add: (...args: never[]) => void } }): Captured {
  const captured: Captured = {};
  const add = client.middlewareStack.add as unknown as (
    mw: (next: unknown) => (args: { request: Captured }) => Promise<never>,
    options: { step: string },
  ) => void;
  add(
    () => async (args) => {
      Object.assign(captured, { hostname: args.request.hostname, port: args.request.port, path: args.request.path });
      throw new Error("captured");
    },
    { step: "finalizeRequest" },
  );
  return captured;
}

describe("AWS client factory", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("sends each service to its AWS_ENDPOINT_URL_<SERVICE> override, as local mode relies on", async () => {
    vi.stubEnv("AWS_ACCESS_KEY_ID", "test");
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", "test");
    vi.stubEnv("AWS_ENDPOINT_URL_SAGEMAKER", "http://127.0.0.1:4599");
    vi.stubEnv("AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME", "http://127.0.0.1:4600");
    const clients = createAwsClients({ region: "us-east-1" });
    const control = captureTarget(clients.sageMaker);
    const runtime = captureTarget(clients.runtime);
    await expect(clients.sageMaker.send(new ListEndpointsCommand({}))).rejects.toThrow("captured");
    await expect(
      clients.runtime.send(
        new InvokeEndpointCommand({ EndpointName: "demo", Body: "{}", ContentType: "application/json" }),
      ),
    ).rejects.toThrow("captured");
    destroyAwsClients(clients);
    expect(control).toMatchObject({ hostname: "127.0.0.1", port: 4599 });
    expect(runtime).toMatchObject({ hostname: "127.0.0.1", port: 4600, path: "/endpoints/demo/invocations" });
  });

  it("uses the regional AWS endpoint when no override is set", async () => {
    vi.stubEnv("AWS_ACCESS_KEY_ID", "test");
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", "test");
    vi.stubEnv("AWS_ENDPOINT_URL_SAGEMAKER", "");
    vi.stubEnv("AWS_ENDPOINT_URL", "");
    const clients = createAwsClients({ region: "eu-west-1" });
    const control = captureTarget(clients.sageMaker);
    await expect(clients.sageMaker.send(new ListEndpointsCommand({}))).rejects.toThrow("captured");
    destroyAwsClients(clients);
    expect(control.hostname).toBe("api.sagemaker.eu-west-1.amazonaws.com");
  });

  it("sends every service to the endpoint in its options, signed with its credentials, path-style for S3", async () => {
    vi.stubEnv("AWS_ENDPOINT_URL_SAGEMAKER", "http://127.0.0.1:4600");
    vi.stubEnv("AWS_ENDPOINT_URL_S3", "");
    vi.stubEnv("AWS_ENDPOINT_URL", "");
    const credentials = { accessKeyId: "AKIDOPTIONS", secretAccessKey: "secret" };
    const clients = createAwsClients({
      region: "us-east-1",
      endpoint: "http://127.0.0.1:4599",
      credentials,
      maxAttempts: 1,
    });
    const control = captureTarget(clients.sageMaker);
    const runtime = captureTarget(clients.runtime);
    await expect(clients.sageMaker.send(new ListEndpointsCommand({}))).rejects.toThrow("captured");
    await expect(
      clients.runtime.send(
        new InvokeEndpointCommand({ EndpointName: "demo", Body: "{}", ContentType: "application/json" }),
      ),
    ).rejects.toThrow("captured");
    expect(control).toMatchObject({ hostname: "127.0.0.1", port: 4599 });
    expect(runtime).toMatchObject({ hostname: "127.0.0.1", port: 4599, path: "/endpoints/demo/invocations" });
    for (const client of Object.values(clients)) {
      expect(await client.config.credentials()).toMatchObject({ accessKeyId: "AKIDOPTIONS" });
      expect(await client.config.maxAttempts()).toBe(1);
    }
    expect(await clients.s3.config.forcePathStyle).toBe(true);
    destroyAwsClients(clients);
  });

  it("uses path-style S3 addressing when S3 is overridden, so a loopback endpoint works", async () => {
    vi.stubEnv("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:4599");
    const clients = createAwsClients({ region: "us-east-1" });
    expect(await clients.s3.config.forcePathStyle).toBe(true);
    destroyAwsClients(clients);
  });
});

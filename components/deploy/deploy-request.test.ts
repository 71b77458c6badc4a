import { describe, expect, it } from "vitest";
import { cpuEndpointDetail } from "@/tests/support/endpoints/endpoint-detail.ts";
import {
  defaultConcurrency,
  deployFormFromEndpoint,
  deployRequestFrom,
  initialDeployForm,
  invocationCostAndLatency,
  samplePool,
} from "./deploy-request.ts";

const image = `123456789012.dkr.ecr.us-east-1.amazonaws.com/decision-adapter@sha256:${"a".repeat(64)}`;

describe("deploy form", () => {
  it("prefills image, model and sha256 from a build's Deploy this link", () => {
    const form = initialDeployForm({ image, model: "s3://bucket/models/m/model.tar.gz", sha256: "b".repeat(64) });
    expect(form.imageUri).toBe(image);
    expect(form.modelDataUrl).toBe("s3://bucket/models/m/model.tar.gz");
    expect(form.compression).toBe("Gzip");
    expect(form.modelSha256).toBe("b".repeat(64));
  });

  it("treats an S3 prefix that is not a tarball as an uncompressed model", () => {
    expect(initialDeployForm({ model: "s3://bucket/models/m/" }).compression).toBe("None");
  });

  it("turns a CPU form into a CPU compute request with numeric threads and only the limits given", () => {
    const form = { ...initialDeployForm({ image, model: "s3://b/m.tar.gz" }), name: "ep-1", threads: "32" };
    form.limits = { ...form.limits, maxInFlight: "2" };
    const request = deployRequestFrom(form);
    expect(request.compute).toEqual({ kind: "cpu", instanceType: "ml.c6i.2xlarge", threads: 32 });
    expect(request.limits).toEqual({ maxInFlight: 2 });
    expect(request.modelSha256).toBeUndefined();
  });

  it("keeps the GPU pool in the order the operator arranged it, priority 1 first", () => {
    const form = {
      ...initialDeployForm({ image, model: "s3://b/m.tar.gz" }),
      name: "gpu",
      computeKind: "gpu-pool" as const,
      gpuPools: ["ml.g5.2xlarge", "ml.g6e.xlarge"],
      gpuLayers: "40",
    };
    expect(deployRequestFrom(form).compute).toEqual({
      kind: "gpu-pool",
      pools: [{ instanceType: "ml.g5.2xlarge" }, { instanceType: "ml.g6e.xlarge" }],
      provisioningTimeoutSeconds: 900,
      gpuLayers: 40,
    });
  });

  it("starts from the AWS sample's four-type GPU pool", () => {
    expect(initialDeployForm({}).gpuPools).toEqual(samplePool);
  });
});

describe("deploying with a fitted temperature", () => {
  const endpoint = cpuEndpointDetail(image);

  it("copies what the endpoint runs and takes the fitted temperature over the deployed one", () => {
    const form = deployFormFromEndpoint(endpoint, "0.72");
    expect(form).toMatchObject({
      name: "",
      imageUri: image,
      modelDataUrl: "s3://bucket/models/qwen/",
      compression: "None",
      computeKind: "cpu",
      cpuInstanceType: "ml.c6i.8xlarge",
      threads: "32",
      instanceCount: "2",
      temperature: "0.72",
    });
    expect(form.limits.maxInFlight).toBe("2");
    expect(deployRequestFrom({ ...form, name: "router-cpu-t072" }).temperature).toBe(0.72);
  });

  it("keeps the deployed temperature when none is given, and sends none when the field is empty", () => {
    expect(deployFormFromEndpoint(endpoint, undefined).temperature).toBe("1.3");
    const form = { ...initialDeployForm({ image, model: "s3://b/m.tar.gz" }), name: "ep" };
    expect(deployRequestFrom(form)).not.toHaveProperty("temperature");
  });
});

describe("the asynchronous invocation mode", () => {
  const complete = { ...initialDeployForm({ image, model: "s3://b/m.tar.gz" }), name: "ok-1" };

  it("sends AsyncInferenceConfig's settings only for an asynchronous form, without empty fields", () => {
    expect(deployRequestFrom(complete).invocation).toEqual({ mode: "real-time" });
    const asyncForm = {
      ...complete,
      invocationMode: "asynchronous" as const,
      errorTopic: " arn:aws:sns:us-east-1:123456789012:ok-err ",
    };
    expect(deployRequestFrom(asyncForm).invocation).toEqual({
      mode: "asynchronous",
      errorTopic: "arn:aws:sns:us-east-1:123456789012:ok-err",
    });
    expect(deployRequestFrom({ ...asyncForm, maxConcurrentInvocations: "4" }).invocation).toMatchObject({
      maxConcurrentInvocationsPerInstance: 4,
    });
  });

  it("defaults the concurrency to ADAPTER_PARALLEL and says what idle time and latency cost", () => {
    expect(defaultConcurrency("cpu")).toBe(8);
    const asyncText = invocationCostAndLatency(
      deployRequestFrom({ ...complete, invocationMode: "asynchronous" }),
      "$0.34",
    );
    expect(asyncText.idle).toContain("scale to 0 instances");
    expect(asyncText.latency).toContain("cold start");
    expect(invocationCostAndLatency(deployRequestFrom(complete), "$0.34").idle).toContain("at least 1 instance");
  });
});

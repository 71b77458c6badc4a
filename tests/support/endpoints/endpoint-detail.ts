import type { EndpointDetail } from "../../../contract/endpoints/endpoint.ts";

/** A decision endpoint on two ml.c6i.8xlarge instances, as GET /api/endpoints/[name] answers for it. */
export function cpuEndpointDetail(image: string): EndpointDetail {
  return {
    name: "router-cpu",
    arn: "arn:aws:sagemaker:us-east-1:1:endpoint/router-cpu",
    status: "InService",
    apiMode: "decision",
    failureReason: null,
    createdAt: "2026-11-30T10:00:00.000Z",
    lastModifiedAt: "2026-11-30T10:05:00.000Z",
    config: { name: "router-cpu", createdAt: null },
    model: {
      name: "router-cpu",
      imageUri: image,
      modelDataUrl: "s3://bucket/models/qwen/",
      compression: "None",
      modelSha256: "c".repeat(64),
      modelVersionArn: null,
      networkIsolation: true,
      executionRoleArn: null,
      environment: {},
    },
    settings: { threads: 32, gpuLayers: null, parallel: null, temperature: 1.3, limits: { SEMIF_MAX_IN_FLIGHT: "2" } },
    dataCapture: null,
    variants: [
      {
        name: "AllTraffic",
        instanceType: "ml.c6i.8xlarge",
        pools: [],
        desiredInstanceCount: 2,
        currentInstanceCount: 2,
        provisioningTimeoutSeconds: null,
        startupTimeoutSeconds: 900,
        downloadTimeoutSeconds: 900,
        resolvedImage: image,
        statusMessages: [],
      },
    ],
    instanceType: "ml.c6i.8xlarge",
    instanceCount: 2,
    hourlyPriceUsd: null,
    autoscaling: null,
    asyncInference: null,
    deployment: {
      pending: null,
      lastDeploymentConfig: null,
      alarms: [],
      lastRollback: null,
      previousConfig: null,
      historyRule: "",
    },
  };
}

"use client";

import type { DeployRequestInput } from "@/contract/endpoints/deploy.ts";
import { describeStorageVolume, storageVolumeFor } from "@/contract/endpoints/storage-volume.ts";
import { priceForInstances } from "@/contract/pricing/prices.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { hourlyPrice } from "../endpoints/endpoint-format.ts";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { invocationCostAndLatency } from "./deploy-request.ts";

export function DeployReview({
  request,
  pending,
  error,
  onBack,
  onDeploy,
}: {
  request: DeployRequestInput;
  pending: boolean;
  error: unknown;
  onBack: () => void;
  onDeploy: () => void;
}) {
  const { compute } = request;
  const firstType = compute.kind === "cpu" ? compute.instanceType : (compute.pools[0]?.instanceType ?? null);
  const price = hourlyPrice(priceForInstances(firstType, request.instanceCount ?? 1));
  const { idle, latency } = invocationCostAndLatency(request, price);
  const { invocation } = request;
  const rows: [string, string][] = [
    ["Endpoint name", request.name],
    ["API mode", request.apiMode ?? "decision"],
    ["Model version", request.modelVersionArn ?? "none (image and artifact chosen by hand)"],
    [
      "Data capture",
      request.dataCapture
        ? `${request.dataCapture.samplingPercentage}% of invocations, to data-capture/ of the artifact bucket`
        : "off",
    ],
    ["Image", request.imageUri],
    ["Model", `${request.modelDataUrl} (${request.compression ?? "Gzip"})`],
    ["Model sha256", request.modelSha256 ?? "not checked by the console"],
    [
      "Compute",
      compute.kind === "cpu"
        ? `${compute.instanceType}, ${compute.threads} thread${compute.threads === 1 ? "" : "s"}`
        : `pool ${compute.pools.map((pool, index) => `${index + 1}. ${pool.instanceType}`).join(", ")}; GPU layers ${compute.gpuLayers}; provisioning timeout ${compute.provisioningTimeoutSeconds} s`,
    ],
    [
      "Storage volume",
      compute.kind === "cpu"
        ? describeStorageVolume(
            storageVolumeFor(compute.instanceType, request.modelBytes, request.compression ?? "Gzip"),
          )
        : "each pool instance type's own storage (GPU types have NVMe instance storage)",
    ],
    ["Instances", String(request.instanceCount ?? 1)],
    [
      "Limits",
      Object.entries(request.limits ?? {})
        .map(([key, value]) => `${key}=${value}`)
        .join(", ") || "adapter defaults",
    ],
    ["Network isolation", "on"],
    [
      "Invocation",
      invocation?.mode === "asynchronous"
        ? `asynchronous: requests in async/${request.name}/in/, answers in .../out/, failures in .../failed/ of the artifact bucket; ${invocation.maxConcurrentInvocationsPerInstance ?? "ADAPTER_PARALLEL"} at once per instance${invocation.successTopic ? `; success to ${invocation.successTopic}` : ""}${invocation.errorTopic ? `; errors to ${invocation.errorTopic}` : ""}`
        : "real-time (InvokeEndpoint)",
    ],
    ["Estimated $/hour", `${price} (first-priority type)`],
    ["Idle cost", idle],
    ["Latency", latency],
  ];
  return (
    <Card title="Review the deployment">
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-slate-700">{term}</dt>
            <dd className="break-all font-mono text-xs leading-5">{value}</dd>
          </div>
        ))}
      </dl>
      {Boolean(error) && (
        <div className="mt-3">
          <ErrorAlert title="Deployment refused" error={error} />
        </div>
      )}
      <div className="mt-4 flex gap-2">
        <Button variant="secondary" onClick={onBack}>
          Back to edit
        </Button>
        <Button onClick={onDeploy} disabled={pending}>
          {pending ? "Deploying…" : "Deploy"}
        </Button>
      </div>
    </Card>
  );
}

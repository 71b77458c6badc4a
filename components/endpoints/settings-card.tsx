import { defaultParallel } from "@decision-console/adapter/contract/parallel-default.ts";
import type { EndpointDetail } from "@/contract/endpoints/endpoint.ts";
import { Card } from "../ui/card.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { hourlyPrice } from "./endpoint-format.ts";

function Row({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="text-slate-700">{term}</dt>
      <dd className="break-all">{children}</dd>
    </>
  );
}

export function SettingsCard({ endpoint }: { endpoint: EndpointDetail }) {
  const { model, settings } = endpoint;
  return (
    <Card title="Settings">
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <Row term="API mode">{endpoint.apiMode}</Row>
        <Row term="Endpoint config">{endpoint.config.name}</Row>
        <Row term="Model">{model.name}</Row>
        <Row term="Image">
          <span className="font-mono text-xs">{model.imageUri ?? "—"}</span>
        </Row>
        <Row term="Model data">
          <span className="font-mono text-xs">{model.modelDataUrl ?? "—"}</span> ({model.compression ?? "?"})
        </Row>
        <Row term="Model sha256">
          <span className="font-mono text-xs">{model.modelSha256 ?? "—"}</span>
        </Row>
        <Row term="Network isolation">{model.networkIsolation ? "on" : "off"}</Row>
        <Row term="Invocation">{endpoint.asyncInference ? "asynchronous (InvokeEndpointAsync)" : "real-time"}</Row>
        {endpoint.asyncInference && (
          <>
            <Row term="Answers">
              <span className="font-mono text-xs">{endpoint.asyncInference.outputPath ?? "—"}</span>
            </Row>
            <Row term="Failures">
              <span className="font-mono text-xs">{endpoint.asyncInference.failurePath ?? "—"}</span>
            </Row>
            <Row term="Requests per instance">
              {endpoint.asyncInference.maxConcurrentInvocationsPerInstance ?? "chosen by SageMaker"}
            </Row>
            <Row term="Notifications">
              {[
                endpoint.asyncInference.successTopic && `success: ${endpoint.asyncInference.successTopic}`,
                endpoint.asyncInference.errorTopic && `errors: ${endpoint.asyncInference.errorTopic}`,
              ]
                .filter(Boolean)
                .join("; ") || "none"}
            </Row>
          </>
        )}
        <Row term="Threads">{settings.threads ?? "default"}</Row>
        <Row term="GPU layers">{settings.gpuLayers ?? "none (CPU)"}</Row>
        <Row term="Parallel sequences">
          {settings.parallel ?? `${defaultParallel(settings.gpuLayers === null ? "cpu" : "cuda")} (adapter default)`}
        </Row>
        <Row term="Temperature">{settings.temperature ?? 1}</Row>
        <Row term="Limits">
          {Object.keys(settings.limits).length === 0
            ? "adapter defaults"
            : Object.entries(settings.limits)
                .map(([key, value]) => `${key}=${value}`)
                .join(", ")}
        </Row>
        <Row term="Data capture">
          {endpoint.dataCapture?.enabled ? (
            <span>
              {endpoint.dataCapture.samplingPercentage}% of invocations ({endpoint.dataCapture.status ?? "—"}) to{" "}
              <span className="font-mono text-xs">{endpoint.dataCapture.destination}</span>
            </span>
          ) : (
            "off"
          )}
        </Row>
        <Row term="$/hour">{hourlyPrice(endpoint.hourlyPriceUsd)}</Row>
        <Row term="Created">
          <Timestamp at={endpoint.createdAt} />
        </Row>
        <Row term="Last modified">
          <Timestamp at={endpoint.lastModifiedAt} />
        </Row>
      </dl>
    </Card>
  );
}

import type { EndpointDetail } from "../../contract/endpoints/endpoint.ts";

/**
 * The one line an evaluation keeps about the endpoint it ran on, and what can be read back from it. Text only: the
 * run view reads it without the endpoint code that writes it.
 */
/** `ml.c6i.8xlarge, 32 threads`, `ml.g6e.xlarge, all layers on GPU, temperature 1.3`. */
export function describeConfiguration(
  detail: Pick<EndpointDetail, "instanceType" | "instanceCount" | "settings">,
): string | null {
  if (!detail.instanceType) return null;
  const { threads, gpuLayers, temperature } = detail.settings;
  const parts = [
    detail.instanceCount && detail.instanceCount > 1
      ? `${detail.instanceCount} × ${detail.instanceType}`
      : detail.instanceType,
    threads ? `${threads} ${threads === 1 ? "thread" : "threads"}` : null,
    gpuLayers === "max" ? "all layers on GPU" : gpuLayers ? `${gpuLayers} GPU layers` : null,
    temperature && temperature !== 1 ? `temperature ${temperature}` : null,
  ];
  return parts.filter(Boolean).join(", ");
}

/** The instance type and count a configuration `describeConfiguration` wrote names; null for anything else. */
export function instancesOfConfiguration(
  configuration: string | null,
): { instanceType: string; instanceCount: number } | null {
  const match = /^(?:(\d+) × )?(ml\.[a-z0-9-]+\.[a-z0-9]+)(?:,|$)/.exec(configuration ?? "");
  if (!match) return null;
  return { instanceType: match[2] as string, instanceCount: match[1] ? Number(match[1]) : 1 };
}

import type { AwsClients } from "../aws/clients.ts";
import { describeEndpoint } from "../endpoints/describe.ts";
import type { EndpointDetail } from "../endpoints/dto.ts";

/** Reads what an endpoint runs on, as the AWS post's table names it; null when it cannot be read. */
export type ConfigurationReader = (endpointName: string) => Promise<string | null>;

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

const DESCRIBE_TIMEOUT_MS = 5_000;

/** Best effort: an evaluation still starts when the endpoint cannot be described (e.g. no DescribeEndpoint right). */
export function endpointConfigurationReader(
  clients: Pick<AwsClients, "sageMaker" | "autoScaling">,
): ConfigurationReader {
  return async (endpointName) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), DESCRIBE_TIMEOUT_MS);
    });
    try {
      const detail = await Promise.race([describeEndpoint(clients, endpointName), timeout]);
      return detail ? describeConfiguration(detail) : null;
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  };
}

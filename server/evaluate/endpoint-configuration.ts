import type { EndpointDetail } from "../../contract/endpoints/endpoint.ts";
import type { AwsClients } from "../aws/clients.ts";
import { toAwsAppError } from "../aws/errors.ts";
import { describeEndpoint } from "../endpoints/describe.ts";
import { AppError } from "../http/app-error.ts";

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

const DESCRIBE_TIMEOUT_MS = 10_000;

/**
 * Checks, before an evaluation starts, that each endpoint exists and is InService (DescribeEndpoint), and reads
 * what it runs on. Throws an AppError naming the endpoint otherwise: an evaluation of an endpoint that cannot
 * answer would only record an error for every item.
 */
export type EndpointChecker = (endpointName: string) => Promise<{ configuration: string | null }>;

export function servingEndpointChecker(
  clients: Pick<AwsClients, "sageMaker" | "autoScaling" | "cloudWatch">,
): EndpointChecker {
  return async (endpointName) => {
    const detail = await describeWithin(clients, endpointName);
    if (detail.status !== "InService") {
      throw new AppError(
        "bad_request",
        `endpoints: ${endpointName} is ${detail.status}; an evaluation needs an InService endpoint.`,
      );
    }
    return { configuration: describeConfiguration(detail) };
  };
}

async function describeWithin(
  clients: Pick<AwsClients, "sageMaker" | "autoScaling" | "cloudWatch">,
  endpointName: string,
): Promise<EndpointDetail> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new AppError(
            "upstream_timeout",
            `endpoints: DescribeEndpoint did not answer for ${endpointName} within ${DESCRIBE_TIMEOUT_MS / 1000} s.`,
          ),
        ),
      DESCRIBE_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([describeEndpoint(clients, endpointName), timeout]);
  } catch (error) {
    const mapped = toAwsAppError(error);
    if (mapped.status === 404) {
      throw new AppError("bad_request", `endpoints: there is no endpoint ${endpointName} in this account and region.`);
    }
    throw mapped;
  } finally {
    clearTimeout(timer);
  }
}

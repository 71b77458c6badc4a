import type { EndpointDetail } from "../../contract/endpoints/endpoint.ts";
import type { AwsClients } from "../aws/clients.ts";
import { toAwsAppError } from "../aws/errors.ts";
import { describeEndpoint } from "../endpoints/describe.ts";
import { AppError } from "../http/app-error.ts";
import { describeConfiguration } from "./configuration-text.ts";

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

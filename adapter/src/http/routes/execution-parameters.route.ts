import { announcedPayloadMb } from "../../engine/batch-settings.ts";
import type { Route } from "../route.ts";

/**
 * `GET /execution-parameters`: what SageMaker Batch Transform asks a container before its first invocation, and
 * uses for the job settings left unset. Requests in flight: the admission limit, so every sequence is kept busy;
 * SINGLE_RECORD, so each record is a request of its own and a refusal names one record; the largest body accepted.
 */
const executionParametersRoute: Route = {
  name: "execution-parameters",
  method: "GET",
  paths: ["/execution-parameters"],
  async handle(_body, { engine }) {
    const { config } = engine;
    return {
      status: 200,
      body: {
        MaxConcurrentTransforms: Math.max(config.maxInFlight, config.parallel),
        BatchStrategy: "SINGLE_RECORD",
        MaxPayloadInMB: announcedPayloadMb(config.maxBodyBytes),
      },
    };
  },
};

export default executionParametersRoute;

import type { GatewayProtocol } from "../../contract/gateway/gateway-api.ts";
import { toAppError } from "../http/route.ts";
import { answering, isDraining } from "../lifecycle/in-flight.ts";
import { GatewayError, gatewayErrorResponse } from "./protocol-errors.ts";

/**
 * Wraps a gateway route handler: every failure answers in the protocol's error shape (a GatewayError with its own
 * status, anything else as the console's AppError would map it: an unknown failure is a logged 500).
 */
export function gatewayRoute(
  protocol: GatewayProtocol,
  handler: (request: Request) => Promise<Response>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    if (isDraining()) {
      const draining = new GatewayError(
        503,
        "unavailable",
        "This console process is shutting down; send the request again.",
        1,
      );
      return gatewayErrorResponse(protocol, draining);
    }
    return answering(async () => {
      try {
        return await handler(request);
      } catch (error) {
        if (error instanceof GatewayError) return gatewayErrorResponse(protocol, error);
        const mapped = toAppError(error);
        return gatewayErrorResponse(protocol, new GatewayError(mapped.status, mapped.code, mapped.message));
      }
    });
  };
}

import { serveDecision } from "@/server/gateway/decision-gateway.ts";
import { gatewayContext } from "@/server/gateway/gateway-context.ts";
import { gatewayRoute } from "@/server/gateway/gateway-route.ts";

/** The decision gateway's TypeSafe System One route, for applications with an API key (docs/gateway.md). */
export const POST = gatewayRoute("systemone", (request) => serveDecision(request, "systemone", gatewayContext()));

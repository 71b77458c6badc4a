import { requireGatewayKey } from "@/server/gateway/decision-gateway.ts";
import { gatewayContext } from "@/server/gateway/gateway-context.ts";
import { gatewayRoute } from "@/server/gateway/gateway-route.ts";
import { gatewayModelList } from "@/server/gateway/model-list.ts";

/** The models a gateway API key may call, in the shape both TypeSafe's and OpenAI's clients list (docs/gateway.md). */
export const GET = gatewayRoute("models", async (request) => {
  const { store, sageMaker } = gatewayContext();
  const key = await requireGatewayKey(request, store);
  return Response.json(await gatewayModelList(sageMaker, key));
});

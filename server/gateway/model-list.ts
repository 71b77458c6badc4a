import type { SageMakerClient } from "@aws-sdk/client-sagemaker";
import type { ModelList } from "@decision-console/adapter/contract";
import { type GatewayKey, keyMayCall } from "../../contract/gateway/keys.ts";
import { listAllEndpointEntries } from "../endpoints/list.ts";

/**
 * `GET /v1/models` for a key: the InService endpoints it may call, by name, and its aliases of them, in the one body
 * both clients read (the adapter's contract/models.ts: TypeSafe's `models`, OpenAI's `data`).
 */
export async function gatewayModelList(sageMaker: SageMakerClient, key: GatewayKey): Promise<ModelList> {
  const serving = (await listAllEndpointEntries(sageMaker)).filter(
    (entry) => entry.EndpointStatus === "InService" && keyMayCall(key.endpoints, entry.EndpointName ?? ""),
  );
  const created = new Map(serving.map((entry) => [entry.EndpointName!.toLowerCase(), entry.CreationTime!]));
  const names = [
    ...serving.map((entry) => ({ id: entry.EndpointName!, of: entry.EndpointName! })),
    ...Object.entries(key.aliases)
      .filter(([, endpoint]) => created.has(endpoint.toLowerCase()))
      .map(([alias, endpoint]) => ({ id: alias, of: endpoint })),
  ];
  const createdAt = (endpoint: string) => created.get(endpoint.toLowerCase())!;
  return {
    models: names.map(({ id, of }) => ({
      name: id,
      description: id === of ? `SageMaker endpoint ${of}` : `Alias of the SageMaker endpoint ${of}`,
      release_date: createdAt(of).toISOString().slice(0, 10),
    })),
    object: "list",
    data: names.map(({ id, of }) => ({
      id,
      object: "model",
      created: Math.floor(createdAt(of).getTime() / 1000),
      owned_by: "decision-console",
    })),
  };
}

import type { ModelShape, ServiceModel } from "./botocore-models.ts";

/** The protocols whose input members are bound to the URI, the query string and headers (not all to one body). */
export const REST_PROTOCOLS = ["rest-json", "rest-xml"];

/**
 * The source of an input structure's HTTP bindings (local-aws/src/wire/rest-binding.ts's `RestBindings`): each
 * member the model places in the URI, the query string or a header (or, `headers`, every header of a prefix), by the
 * name it has there, with a timestamp's format where the model sets one; and the member that is the payload.
 * Members without a location travel in the body, which the service's handler reads.
 */
export function restBindings(model: ServiceModel, input: ModelShape | undefined, operation: string): string {
  const members: string[] = [];
  for (const [name, member] of Object.entries(input?.members ?? {})) {
    if (!member.location) continue;
    if (member.location === "statusCode") throw new Error(`${operation}.${name}: an input bound to the status code`);
    const shape = model.shapes[member.shape]!;
    if (member.location === "headers" && shape.type !== "map")
      throw new Error(`${operation}.${name}: headers not a map`);
    if (member.location === "querystring" && shape.type === "map") {
      throw new Error(`${operation}.${name}: a query-string map is not supported`);
    }
    const format = member.timestampFormat ?? shape.timestampFormat;
    const parts = [`location: "${member.location}"`, `name: ${JSON.stringify(member.locationName ?? name)}`];
    if (shape.type === "timestamp" && format) parts.push(`format: "${format}"`);
    members.push(`${name}: { ${parts.join(", ")} }`);
  }
  const payload = input?.payload ? [`payload: ${JSON.stringify(input.payload)}`] : [];
  const table = members.length > 0 ? `{ ${members.join(", ")} }` : "{}";
  return `{ ${[...payload, `members: ${table}`].join(", ")} }`;
}

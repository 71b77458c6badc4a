import { consoleApi } from "@/contract/api.ts";
import { reply, route } from "@/server/http/route.ts";
import { openApiDocument } from "@/server/openapi/document.ts";

/** The OpenAPI 3.1 document of this API, built once per process from the route table it serves. */
let document: ReturnType<typeof openApiDocument> | undefined;

export const GET = route(async () => {
  document ??= openApiDocument();
  return reply(consoleApi.openApi, document);
});

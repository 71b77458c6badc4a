import { z } from "zod";

/**
 * `GET /api/openapi.json`: the console's API as an OpenAPI 3.1 document (server/openapi/document.ts builds it from
 * contract/api.ts). Only its frame is checked here; OpenAPI's own schema describes the rest.
 */
export const openApiDocumentSchema = z.looseObject({
  openapi: z.literal("3.1.0"),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.looseObject({})),
  components: z.looseObject({}),
});
export type OpenApiDocument = z.infer<typeof openApiDocumentSchema>;

import { z } from "zod";

/**
 * `GET /v1/models`, read by two clients: typesafe-sdk's `list_models()` reads `models: [{name, description,
 * release_date}]` (TypeSafe's ModelMetadataList), OpenAI's `models.list()` reads `object: "list"` and `data`. One
 * body carries both, each client ignoring the other's fields; the adapter's model metadata is under `x_meta`.
 */
export const modelListSchema = z.object({
  models: z.array(z.object({ name: z.string(), description: z.string(), release_date: z.string() })),
  object: z.literal("list"),
  data: z.array(
    z.object({
      id: z.string(),
      object: z.literal("model"),
      created: z.number().int(),
      owned_by: z.string(),
      x_meta: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
});
export type ModelList = z.infer<typeof modelListSchema>;

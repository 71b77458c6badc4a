import { z } from "zod";
import { apiModeSchema } from "../endpoints/endpoint.ts";

export const deployableImageSchema = z.object({
  /** Digest-pinned URI, ready for the deploy form. */
  imageUri: z.string(),
  repository: z.string(),
  digest: z.string(),
  tags: z.array(z.string()),
  pushedAt: z.iso.datetime().nullable(),
  sizeBytes: z.number().nullable(),
  /** `decision` for the adapter, `chat` for text-generation images such as the llama.cpp DLC. */
  apiMode: apiModeSchema,
  source: z.enum(["ecr", "dlc"]),
  variant: z.enum(["cpu", "cuda"]).nullable(),
});
export type DeployableImage = z.infer<typeof deployableImageSchema>;

export const imageListSchema = z.object({
  images: z.array(deployableImageSchema),
  /** DLC tags that could not be resolved to a digest (e.g. ecr:DescribeImages denied), with the reason. */
  unresolved: z.array(z.object({ reference: z.string(), reason: z.string() })),
});
export type ImageList = z.infer<typeof imageListSchema>;

/** `GET /api/images?tag=`: with a tag, that one tag of the adapter repository resolved to its digest. */
export const imagesQuerySchema = z.object({
  tag: z
    .string()
    .regex(/^[\w][\w.-]{0,127}$/, "must be an image tag such as cpu")
    .optional(),
});

export const imagesResponseSchema = z.union([imageListSchema, deployableImageSchema]);

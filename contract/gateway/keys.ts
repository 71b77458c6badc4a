import { z } from "zod";

/** A name the key may call: an endpoint's name, or a prefix of names ending in `*` (`support-*`). */
const endpointScope = z
  .string()
  .regex(
    /^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$|^[a-zA-Z0-9][a-zA-Z0-9-]{0,62}\*$|^\*$/,
    "must be an endpoint name, or a name prefix ending in *",
  );

const alias = z.string().regex(/^[\w.:-]{1,64}$/, "must be 1-64 letters, digits, _ . : or -");

export const gatewayKeyLimitsSchema = z.object({
  endpoints: z.array(endpointScope).min(1, "must name at least one endpoint or prefix").max(50),
  /** Model names the key's callers may send, each naming an endpoint the key may call. */
  aliases: z.record(alias, z.string().min(1)).default({}),
  requestsPerMinute: z.number().int().min(1).max(100_000),
  tokensPerMinute: z.number().int().min(1).max(100_000_000),
  /** ISO time after which the key is refused; null: never. */
  expiresAt: z.iso.datetime({ offset: true }).nullable(),
});

export const createGatewayKeySchema = gatewayKeyLimitsSchema.extend({
  name: z.string().trim().min(1).max(64),
});
export type CreateGatewayKey = z.infer<typeof createGatewayKeySchema>;

export const updateGatewayKeySchema = gatewayKeyLimitsSchema.partial();
export type UpdateGatewayKey = z.infer<typeof updateGatewayKeySchema>;

export const gatewayKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  endpoints: z.array(z.string()),
  aliases: z.record(z.string(), z.string()),
  requestsPerMinute: z.number().int(),
  tokensPerMinute: z.number().int(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type GatewayKey = z.infer<typeof gatewayKeySchema>;

/** The answer to creating a key: the only time its secret is shown. */
export const createdGatewayKeySchema = z.object({ key: gatewayKeySchema, secret: z.string() });

/** One minute of a key's calls. */
export const usageBucketSchema = z.object({
  minute: z.string(),
  calls: z.number().int(),
  refused: z.number().int(),
  tokens: z.number().int(),
});

export const gatewayKeyUsageSchema = z.object({
  keyId: z.string(),
  calls: z.number().int(),
  tokens: z.number().int(),
  lastCallAt: z.string().nullable(),
  perMinute: z.array(usageBucketSchema),
});
export type GatewayKeyUsage = z.infer<typeof gatewayKeyUsageSchema>;

export const gatewayKeyListSchema = z.object({
  keys: z.array(gatewayKeySchema.extend({ usage: gatewayKeyUsageSchema })),
});
export type GatewayKeyList = z.infer<typeof gatewayKeyListSchema>;

/** Whether a key's scope lets it call `endpoint` (endpoint names ignore case, as in SageMaker). */
export function keyMayCall(scope: readonly string[], endpoint: string): boolean {
  const name = endpoint.toLowerCase();
  return scope.some((entry) => {
    const lower = entry.toLowerCase();
    return lower.endsWith("*") ? name.startsWith(lower.slice(0, -1)) : name === lower;
  });
}

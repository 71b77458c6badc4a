import { z } from "zod";

/** What `/api/health` says about the AWS control plane the console was pointed at for a health check. */
export const controlPlaneHealthSchema = z.object({
  status: z.enum(["ok", "unhealthy", "unreachable"]),
  /** Why it is not ok, without addresses or anything else of its configuration. */
  reason: z.string().optional(),
});
export type ControlPlaneHealth = z.infer<typeof controlPlaneHealthSchema>;

/** `GET /api/health`: 200 `ok`, or 503 `degraded` when a configured control plane (local mode) is not ok. */
export const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  mode: z.enum(["local", "aws"]),
  versions: z.object({ console: z.string(), node: z.string() }),
  controlPlane: controlPlaneHealthSchema.optional(),
});
export type Health = z.infer<typeof healthSchema>;

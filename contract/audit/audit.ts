import { z } from "zod";

export const auditResultSchema = z.enum(["ok", "error", "denied"]);
export type AuditResult = z.infer<typeof auditResultSchema>;

export const auditRecordSchema = z.object({
  id: z.number().int(),
  at: z.iso.datetime(),
  /** The signed-in user's name (`local` in local mode). */
  actor: z.string(),
  /** What was done, as `area.verb`: `endpoint.delete`, `build.start`, `auth.login`. */
  action: z.string(),
  /** What it was done to: an endpoint name, a build id. */
  target: z.string(),
  awsRequestId: z.string().nullable(),
  result: auditResultSchema,
  /** Anything that helps a reader later (the instance count asked for, the error message). */
  detail: z.unknown(),
});
export type AuditRecord = z.infer<typeof auditRecordSchema>;

/** `GET /api/audit` query: newest first; `before` (the last id of a page) fetches the next page. */
export const auditQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  before: z.coerce.number().int().positive().optional(),
  actor: z.string().max(200).optional(),
  action: z.string().max(100).optional(),
});

export const auditPageSchema = z.object({
  records: z.array(auditRecordSchema),
  /** Pass as `before` for the next page; null on the last one. */
  nextBefore: z.number().int().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

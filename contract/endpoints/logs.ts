import { z } from "zod";

/** `GET /api/endpoints/[name]/logs?minutes=&filterPattern=&limit=` query. */
export const endpointLogsQuerySchema = z.object({
  /** The time window: the last `minutes` minutes. */
  minutes: z.coerce.number().int().min(5).max(10080).default(60),
  /** A CloudWatch Logs filter pattern (FilterLogEvents' filterPattern: at most 1024 characters). */
  filterPattern: z.string().max(1024, "a filter pattern has at most 1024 characters").optional(),
  /** The most recent lines shown. */
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});
export type EndpointLogsQuery = z.infer<typeof endpointLogsQuerySchema>;

export const endpointLogsSchema = z.object({
  endpointName: z.string(),
  logGroupName: z.string(),
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  filterPattern: z.string().nullable(),
  /** False until the endpoint's container has written its first line. */
  logGroupExists: z.boolean(),
  /** Oldest first: the most recent `limit` matching lines of the window. */
  events: z.array(z.object({ id: z.string(), at: z.iso.datetime(), stream: z.string(), message: z.string() })),
  /** More lines matched than are shown (older ones left out, or the search stopped at its page bound). */
  truncated: z.boolean(),
});
export type EndpointLogs = z.infer<typeof endpointLogsSchema>;

import { z } from "zod";

export const metricNameSchema = z.enum(["Invocations", "ModelLatency", "Invocation4XXErrors", "Invocation5XXErrors"]);
export type MetricName = z.infer<typeof metricNameSchema>;

/** `GET /api/endpoints/[name]/metrics?minutes=&periodSeconds=` query. */
export const metricsQuerySchema = z.object({
  minutes: z.coerce.number().int().min(5).max(20160).default(180),
  periodSeconds: z.coerce.number().int().min(60).max(86400).default(300),
});
export type MetricsQuery = z.infer<typeof metricsQuerySchema>;

export const metricSeriesSchema = z.object({
  metric: metricNameSchema,
  /** Sum for counts; Average for ModelLatency, which CloudWatch reports in microseconds. */
  stat: z.enum(["Sum", "Average"]),
  unit: z.enum(["Count", "Microseconds"]),
  points: z.array(z.object({ at: z.iso.datetime(), value: z.number() })),
});
export type MetricSeries = z.infer<typeof metricSeriesSchema>;

export const endpointMetricsSchema = z.object({
  endpointName: z.string(),
  variantName: z.string(),
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  periodSeconds: z.number().int(),
  series: z.array(metricSeriesSchema),
});
export type EndpointMetrics = z.infer<typeof endpointMetricsSchema>;

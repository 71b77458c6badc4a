import { z } from "zod";

export const metricNameSchema = z.enum([
  "Invocations",
  "ModelLatency",
  "Invocation4XXErrors",
  "Invocation5XXErrors",
  // Asynchronous endpoints only (dimension EndpointName): requests queued or being processed, and the oldest's age.
  "ApproximateBacklogSize",
  "ApproximateAgeOfOldestRequest",
  // Asynchronous endpoints only (EndpointName, VariantName): requests processed successfully. AWS's spelling.
  "InvocationsProcesssed",
]);
export type MetricName = z.infer<typeof metricNameSchema>;

/** The metrics only asynchronous endpoints publish. */
export const backlogMetrics: readonly MetricName[] = ["ApproximateBacklogSize", "ApproximateAgeOfOldestRequest"];

/**
 * What counts an endpoint's invocations, by kind. SageMaker's "Alarms and logs for tracking metrics from asynchronous
 * endpoints": "Any metric not listed below is not published if the endpoint is enabled for asynchronous inference.
 * Such metrics include (but are not limited to): OverheadLatency, Invocations, InvocationsPerInstance"; its list has
 * InvocationsProcesssed ("The number of async invocations processed by the endpoint").
 */
export function invocationsMetric(asynchronous: boolean): MetricName {
  return asynchronous ? "InvocationsProcesssed" : "Invocations";
}

/** The metrics an endpoint of this kind publishes, of those the console charts. */
export function publishedBy(asynchronous: boolean, metric: MetricName): boolean {
  if (metric === "Invocations" || metric === "InvocationsProcesssed") return metric === invocationsMetric(asynchronous);
  return asynchronous || !backlogMetrics.includes(metric);
}

/** `GET /api/endpoints/[name]/metrics?minutes=&periodSeconds=` query. */
export const metricsQuerySchema = z.object({
  minutes: z.coerce.number().int().min(5).max(20160).default(180),
  periodSeconds: z.coerce.number().int().min(60).max(86400).default(300),
});
export type MetricsQuery = z.infer<typeof metricsQuerySchema>;

export const metricSeriesSchema = z.object({
  metric: metricNameSchema,
  /** Sum for counts; Average for ModelLatency (microseconds) and the backlog; Maximum for the oldest request's age. */
  stat: z.enum(["Sum", "Average", "Maximum"]),
  unit: z.enum(["Count", "Microseconds", "Seconds"]),
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

/**
 * A variant's instance count over the charted window as a step series: each point is the count from its time on
 * (the window's start, then the end of each successful Application Auto Scaling activity, then now if the endpoint
 * runs another count than the last activity set).
 */
export const instanceSeriesSchema = z.object({
  variantName: z.string(),
  points: z.array(z.object({ at: z.iso.datetime(), value: z.number().int().min(0) })),
  /** Seconds the variant's latest start from 0 instances took (its scaling activity), null if it never did one. */
  coldStartSeconds: z.number().nullable(),
});
export type InstanceSeries = z.infer<typeof instanceSeriesSchema>;

/** `GET /api/endpoints/[name]/metrics`: the CloudWatch series and each variant's instance count. */
export const endpointMetricsResponseSchema = endpointMetricsSchema.extend({ instances: z.array(instanceSeriesSchema) });
export type EndpointMetricsResponse = z.infer<typeof endpointMetricsResponseSchema>;

/**
 * The `AWS/SageMaker` endpoint metrics local mode publishes, by kind of endpoint, each within the list AWS documents
 * for that kind.
 *
 * Real-time endpoints: the "Endpoint invocation metrics" of InvokeEndpoint calls (SageMaker developer guide, "Amazon
 * SageMaker AI metrics in Amazon CloudWatch").
 *
 * Asynchronous endpoints: the developer guide's "Alarms and logs for tracking metrics from asynchronous endpoints"
 * (async-inference-monitor): "The metrics below are an exhaustive list of metrics for asynchronous endpoints ... Any
 * metric not listed below is not published if the endpoint is enabled for asynchronous inference. Such metrics
 * include (but are not limited to): OverheadLatency, Invocations, InvocationsPerInstance." Its list has no
 * InvocationModelErrors; a request that fails for any reason counts in InvocationFailures.
 */
export const REAL_TIME_ENDPOINT_METRICS = [
  "Invocations",
  "Invocation4XXErrors",
  "Invocation5XXErrors",
  "InvocationModelErrors",
  "ModelLatency",
] as const;
export type RealTimeEndpointMetric = (typeof REAL_TIME_ENDPOINT_METRICS)[number];

export const ASYNC_ENDPOINT_METRICS = [
  // Common endpoint metrics, "the same as the metrics published for real-time endpoints".
  "Invocation4XXErrors",
  "Invocation5XXErrors",
  "ModelLatency",
  // With the EndpointName dimension.
  "ApproximateBacklogSize",
  "ApproximateBacklogSizePerInstance",
  "ApproximateAgeOfOldestRequest",
  "HasBacklogWithoutCapacity",
  // With the EndpointName and VariantName dimensions (InvocationsProcesssed is AWS's spelling).
  "RequestDownloadFailures",
  "ResponseUploadFailures",
  "NotificationFailures",
  "RequestDownloadLatency",
  "ResponseUploadLatency",
  "ExpiredRequests",
  "InvocationFailures",
  "InvocationsProcesssed",
  "TimeInBacklog",
  "TotalProcessingTime",
] as const;
export type AsyncEndpointMetric = (typeof ASYNC_ENDPOINT_METRICS)[number];

export const SAGEMAKER_NAMESPACE = "AWS/SageMaker";

/** `p90`, `p99.9`: the percentile statistics local CloudWatch computes (nearest rank). */
export const PERCENTILE_PATTERN = /^p(\d{1,2}(\.\d{1,2})?|100)$/;

/**
 * Whether CloudWatch has a statistic of a metric. CloudWatch "needs raw data points to calculate percentiles" and
 * computes them for "some CloudWatch metrics" (user guide, Percentiles); SageMaker lists the valid statistics of each
 * metric, and for none of the endpoint metrics above does it list percentiles (ModelLatency: "Average, Sum, Min,
 * Max, Sample Count"; it lists "Percentiles" for ModelSetupTime, which local mode does not publish). So a percentile
 * of an `AWS/SageMaker` metric has no datapoints; metrics published in other namespaces are kept raw and have them.
 */
export function statisticAvailable(namespace: string, statistic: string | undefined): boolean {
  return !(namespace === SAGEMAKER_NAMESPACE && statistic !== undefined && PERCENTILE_PATTERN.test(statistic));
}

import type { AsyncEndpointMetric } from "../alarms/sagemaker-endpoint-metrics.ts";
import type { EndpointRunner } from "../endpoints/endpoint-runner.ts";
import type { MetricDatapoints } from "../metric-datapoints.ts";
import type { SageMakerStore } from "../sagemaker-store.ts";
import type { AsyncRequestStore } from "./async-request-store.ts";

/** How often the backlog metrics are published (the 10 s; CloudWatch's high-resolution period). */
export const BACKLOG_PUBLISH_MS = 10_000;

/**
 * The asynchronous-endpoint metrics SageMaker publishes with the EndpointName dimension (Asynchronous Inference
 * Endpoint Metrics): ApproximateBacklogSize (queued or being processed), ApproximateBacklogSizePerInstance,
 * ApproximateAgeOfOldestRequest (seconds) and HasBacklogWithoutCapacity (1 while requests wait and no instance
 * runs), every 10 s for every asynchronous endpoint that is not being deleted. The per-instance size divides by
 * at least one instance, so it stays the backlog size while there are none.
 */
export class BacklogMetrics {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sageMaker: SageMakerStore,
    private readonly runner: EndpointRunner,
    private readonly requests: AsyncRequestStore,
    private readonly metrics: MetricDatapoints,
    private readonly clock: () => number = Date.now,
  ) {}

  start() {
    this.timer = setInterval(() => this.publish(), BACKLOG_PUBLISH_MS);
    this.timer.unref();
  }

  publish(now = this.clock()) {
    for (const endpoint of this.sageMaker.endpoints()) {
      if (endpoint.status === "Deleting") continue;
      if (!this.sageMaker.endpointConfig(endpoint.configName)?.AsyncInferenceConfig) continue;
      const { size, oldestReceivedAt } = this.requests.backlog(endpoint.name);
      const instances = this.runner.healthyInstances(endpoint.name).length;
      const dimensions = { EndpointName: endpoint.name };
      const put = (name: AsyncEndpointMetric, value: number, unit: string) =>
        this.metrics.put("AWS/SageMaker", name, dimensions, value, unit, now);
      put("ApproximateBacklogSize", size, "Count");
      put("ApproximateBacklogSizePerInstance", size / Math.max(1, instances), "Count");
      put("ApproximateAgeOfOldestRequest", oldestReceivedAt === null ? 0 : (now - oldestReceivedAt) / 1000, "Seconds");
      put("HasBacklogWithoutCapacity", size > 0 && instances === 0 ? 1 : 0, "Count");
    }
    this.metrics.prune(now);
  }

  close() {
    clearInterval(this.timer);
  }
}

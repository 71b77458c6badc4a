import {
  type ApplicationAutoScalingClient,
  DescribeScalingActivitiesCommand,
  type ScalingActivity,
} from "@aws-sdk/client-application-auto-scaling";
import {
  DescribeEndpointCommand,
  DescribeEndpointConfigCommand,
  type SageMakerClient,
} from "@aws-sdk/client-sagemaker";
import type { InstanceSeries } from "../../contract/endpoints/metrics.ts";
import { SAGEMAKER_VARIANT_SCALING } from "../../contract/stack/console-contract.ts";
import { awsCall } from "../aws/errors.ts";

/** The count an activity sets: Application Auto Scaling describes it as "Setting desired instance count to N." */
const DESIRED_COUNT = /desired instance count to (\d+)/;

interface CountChange {
  at: Date;
  value: number;
  /** How long the activity ran (StartTime to EndTime). */
  seconds: number;
}

/** A variant's successful capacity changes (all of the last six weeks that the service keeps), oldest first. */
async function capacityChanges(
  autoScaling: ApplicationAutoScalingClient,
  endpointName: string,
  variantName: string,
): Promise<CountChange[]> {
  const activities: ScalingActivity[] = [];
  let nextToken: string | undefined;
  do {
    const page = await awsCall(`scaling activities of "${endpointName}"`, () =>
      autoScaling.send(
        new DescribeScalingActivitiesCommand({
          ServiceNamespace: SAGEMAKER_VARIANT_SCALING.serviceNamespace,
          ResourceId: `endpoint/${endpointName}/variant/${variantName}`,
          ScalableDimension: SAGEMAKER_VARIANT_SCALING.scalableDimension,
          NextToken: nextToken,
        }),
      ),
    );
    activities.push(...(page.ScalingActivities ?? []));
    nextToken = page.NextToken;
  } while (nextToken);
  return activities
    .flatMap((activity) => {
      const count = DESIRED_COUNT.exec(activity.Description ?? "")?.[1];
      return activity.StatusCode === "Successful" && activity.EndTime && count !== undefined
        ? [
            {
              at: activity.EndTime,
              value: Number(count),
              seconds: (activity.EndTime.getTime() - (activity.StartTime ?? activity.EndTime).getTime()) / 1000,
            },
          ]
        : [];
    })
    .sort((a, b) => a.at.getTime() - b.at.getTime());
}

/**
 * Each variant's instance count from `from` (or the endpoint's creation, if later) to `now`, built from Application
 * Auto Scaling's scaling activities: the count at the start is the one the last activity before it set, or, with no
 * earlier activity, the endpoint configuration's initial count; it changes at the end of each successful activity;
 * the endpoint's current count closes the series when it differs (a change made outside Application Auto Scaling).
 */
export async function instanceHistory(
  clients: { autoScaling: ApplicationAutoScalingClient; sageMaker: SageMakerClient },
  endpointName: string,
  from: Date,
  now: Date = new Date(),
): Promise<InstanceSeries[]> {
  const endpoint = await awsCall(`endpoint "${endpointName}"`, () =>
    clients.sageMaker.send(new DescribeEndpointCommand({ EndpointName: endpointName })),
  );
  const config = await awsCall(`endpoint configuration of "${endpointName}"`, () =>
    clients.sageMaker.send(new DescribeEndpointConfigCommand({ EndpointConfigName: endpoint.EndpointConfigName })),
  );
  const start = new Date(Math.max(from.getTime(), endpoint.CreationTime?.getTime() ?? 0));
  return Promise.all(
    (endpoint.ProductionVariants ?? []).map(async (variant) => {
      const variantName = variant.VariantName ?? "";
      const current = variant.CurrentInstanceCount ?? 0;
      const changes = (await capacityChanges(clients.autoScaling, endpointName, variantName)).filter(
        (change) => change.at <= now,
      );
      const before = changes.filter((change) => change.at <= start).at(-1)?.value;
      const initial = config.ProductionVariants?.find((v) => v.VariantName === variantName)?.InitialInstanceCount;
      const points = [
        { at: start, value: before ?? initial ?? current },
        ...changes.filter((change) => change.at > start),
      ];
      if (points.at(-1)?.value !== current) points.push({ at: now, value: current });
      return {
        variantName,
        points: points.map((point) => ({ at: point.at.toISOString(), value: point.value })),
        coldStartSeconds: lastColdStartSeconds(changes),
      };
    }),
  );
}

/**
 * How long the variant's latest start from zero took: the activity that set a count above 0 after one that set 0
 * (from Application Auto Scaling starting it to the instance serving); null if it never started from zero.
 */
export function lastColdStartSeconds(changes: readonly Pick<CountChange, "value" | "seconds">[]): number | null {
  for (let i = changes.length - 1; i > 0; i--) {
    const change = changes[i];
    if (change && change.value > 0 && changes[i - 1]?.value === 0) return Math.round(change.seconds);
  }
  return null;
}

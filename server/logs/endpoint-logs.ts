import {
  type CloudWatchLogsClient,
  type FilteredLogEvent,
  FilterLogEventsCommand,
} from "@aws-sdk/client-cloudwatch-logs";
import type { EndpointLogs, EndpointLogsQuery } from "../../contract/endpoints/logs.ts";
import { toAwsAppError } from "../aws/errors.ts";

/** FilterLogEvents pages one view reads at most; each searches a slice of the group, so a page may come back empty. */
const MAX_PAGES = 20;

/** The log group SageMaker writes an endpoint's container output to. */
export function endpointLogGroupName(endpointName: string): string {
  return `/aws/sagemaker/Endpoints/${endpointName}`;
}

/**
 * The most recent lines of an endpoint's log group in the window, matching the filter pattern, through
 * FilterLogEvents (the console's policy allows it on its endpoints' log groups only). An endpoint that has not
 * written yet has no log group: that is an empty view, not an error. A pattern CloudWatch refuses is a 400.
 */
export async function endpointLogs(
  logs: CloudWatchLogsClient,
  endpointName: string,
  query: EndpointLogsQuery,
  now: number = Date.now(),
): Promise<EndpointLogs> {
  const logGroupName = endpointLogGroupName(endpointName);
  const startTime = now - query.minutes * 60_000;
  const filterPattern = query.filterPattern?.trim() || undefined;
  const view = {
    endpointName,
    logGroupName,
    from: new Date(startTime).toISOString(),
    to: new Date(now).toISOString(),
    filterPattern: filterPattern ?? null,
  };
  const events: FilteredLogEvent[] = [];
  let nextToken: string | undefined;
  let pages = 0;
  let dropped = false;
  try {
    do {
      const page = await logs.send(
        new FilterLogEventsCommand({
          logGroupName,
          startTime,
          endTime: now,
          filterPattern,
          nextToken,
          limit: query.limit,
        }),
      );
      events.push(...(page.events ?? []));
      if (events.length > query.limit) {
        events.splice(0, events.length - query.limit);
        dropped = true;
      }
      nextToken = page.nextToken;
      pages++;
    } while (nextToken && pages < MAX_PAGES);
  } catch (error) {
    if ((error as { name?: string }).name === "ResourceNotFoundException") {
      return { ...view, logGroupExists: false, events: [], truncated: false };
    }
    throw toAwsAppError(error, `the log group ${logGroupName}`);
  }
  return {
    ...view,
    logGroupExists: true,
    events: events.map((event) => ({
      id: event.eventId ?? `${event.logStreamName}/${event.timestamp}`,
      at: new Date(event.timestamp ?? 0).toISOString(),
      stream: event.logStreamName ?? "",
      message: event.message ?? "",
    })),
    truncated: dropped || nextToken !== undefined,
  };
}

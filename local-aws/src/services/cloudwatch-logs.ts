import type {
  DescribeLogStreamsCommandInput,
  DescribeLogStreamsCommandOutput,
  FilterLogEventsCommandInput,
  FilterLogEventsCommandOutput,
  GetLogEventsCommandInput,
  GetLogEventsCommandOutput,
} from "@aws-sdk/client-cloudwatch-logs";
import type { LogEvent, LogStore } from "../log-store.ts";
import { AwsError } from "../wire/aws-error.ts";
import { cloudWatchLogsInputShapes } from "../wire/generated/cloudwatch-logs.ts";
import { withInputShapes } from "../wire/input-shapes.ts";
import type { JsonService } from "../wire/json-rpc.ts";
import { LOCAL_ACCOUNT_ID } from "../wire/request.ts";
import { servingOnly } from "../wire/served-members.ts";
import { asJsonOperations, type TypedOperation } from "../wire/typed-operations.ts";
import { cloudWatchLogsServedMembers } from "./cloudwatch-logs-served.ts";
import { logFilter } from "./log-filter-pattern.ts";

/** How many events of a group one FilterLogEvents call searches at most. */
const FILTER_SCAN_EVENTS = 10_000;

/** The operations this module serves, each typed with the SDK's own input and output. */
type LogsOperations = {
  GetLogEvents: TypedOperation<GetLogEventsCommandInput, GetLogEventsCommandOutput>;
  FilterLogEvents: TypedOperation<FilterLogEventsCommandInput, FilterLogEventsCommandOutput>;
  DescribeLogStreams: TypedOperation<DescribeLogStreamsCommandInput, DescribeLogStreamsCommandOutput>;
};

function groupName(input: { logGroupName?: string; logGroupIdentifier?: string }): string {
  const name = input.logGroupName ?? input.logGroupIdentifier;
  if (!name) {
    throw new AwsError("InvalidParameterException", "logGroupName or logGroupIdentifier is required");
  }
  return name.includes(":log-group:") ? (name.split(":log-group:")[1] ?? name).replace(/:\*$/, "") : name;
}

/** CloudWatch Logs (AWS JSON 1.1): GetLogEvents, FilterLogEvents, DescribeLogStreams over the local log store. */
export function cloudWatchLogsService(logs: LogStore): JsonService {
  function requireGroup(group: string) {
    if (!logs.hasGroup(group))
      throw new AwsError("ResourceNotFoundException", "The specified log group does not exist.");
  }
  return {
    target: "Logs_20140328",
    signingName: "logs",
    version: "1.1",
    operations: withInputShapes(
      "CloudWatchLogs",
      cloudWatchLogsInputShapes,
      servingOnly(
        "CloudWatchLogs",
        cloudWatchLogsServedMembers,
        asJsonOperations({
          GetLogEvents(input) {
            const group = groupName(input);
            const stream = input.logStreamName;
            requireGroup(group);
            if (!logs.hasStream(group, stream)) {
              throw new AwsError("ResourceNotFoundException", "The specified log stream does not exist.");
            }
            const token = input.nextToken ?? "";
            const tokenMatch = /^([fb])\/(\d+)$/.exec(token);
            if (token && !tokenMatch)
              throw new AwsError("InvalidParameterException", "The specified nextToken is invalid.");
            const limit = input.limit ?? 10_000;
            const direction = tokenMatch?.[1];
            const position = Number(tokenMatch?.[2] ?? 0);
            const events = logs.read(group, stream, {
              after: direction === "f" ? position : undefined,
              before: direction === "b" ? position : undefined,
              from: input.startTime,
              to: input.endTime,
              limit,
              fromHead: direction === "f" || (!direction && input.startFromHead === true),
            });
            const first = events[0]?.id;
            const last = events.at(-1)?.id;
            return {
              events: events.map((event) => ({
                timestamp: event.timestamp,
                message: event.message,
                ingestionTime: event.timestamp,
              })),
              nextForwardToken: `f/${last ?? (direction === "f" ? position : 0)}`,
              nextBackwardToken: `b/${first ?? (direction === "b" ? position : 0)}`,
            };
          },
          FilterLogEvents(input) {
            if (input.logGroupName !== undefined && input.logGroupIdentifier !== undefined) {
              throw new AwsError(
                "InvalidParameterException",
                "LogGroup name and LogGroup ARN are mutually exclusive parameters.",
              );
            }
            const names = input.logStreamNames;
            const prefix = input.logStreamNamePrefix;
            if (names && prefix !== undefined) {
              throw new AwsError(
                "InvalidParameterException",
                "Cannot specify both logStreamNames and logStreamNamePrefix",
              );
            }
            const group = groupName(input);
            requireGroup(group);
            const limit = input.limit ?? 10_000;
            const matches = logFilter(input.filterPattern);
            const inStreams = (stream: string) =>
              names ? names.includes(stream) : prefix === undefined || stream.startsWith(prefix);
            const token = input.nextToken;
            if (token !== undefined && !/^\d+$/.test(token)) {
              throw new AwsError("InvalidParameterException", "The specified nextToken is invalid.");
            }
            // Like AWS, one call searches a bounded slice of the group: a page may hold fewer than `limit` events (even
            // none) and still carry a nextToken to go on from.
            const scanned = logs.scan(group, {
              after: Number(token ?? 0),
              from: input.startTime,
              to: input.endTime,
              limit: FILTER_SCAN_EVENTS,
            });
            const page: LogEvent[] = [];
            let searched = 0;
            for (const event of scanned) {
              if (page.length === limit) break;
              searched++;
              if (inStreams(event.stream) && matches(event.message)) page.push(event);
            }
            const more = searched < scanned.length || scanned.length === FILTER_SCAN_EVENTS;
            const last = scanned[searched - 1]?.id;
            return {
              events: page.map((event) => ({
                logStreamName: event.stream,
                timestamp: event.timestamp,
                message: event.message,
                ingestionTime: event.timestamp,
                eventId: String(event.id),
              })),
              nextToken: more && last !== undefined ? String(last) : undefined,
            };
          },
          DescribeLogStreams(input, request) {
            const group = groupName(input);
            requireGroup(group);
            const limit = input.limit ?? 50;
            const prefix = input.logStreamNamePrefix ?? "";
            let streams = logs.streams(group).filter((s) => s.stream.startsWith(prefix));
            if (input.orderBy !== "LastEventTime") streams.sort((a, b) => a.stream.localeCompare(b.stream));
            if (input.descending === true && input.orderBy !== "LastEventTime") streams.reverse();
            if (input.orderBy === "LastEventTime" && input.descending !== true) streams.reverse();
            const offset = Number(input.nextToken ?? 0) || 0;
            streams = streams.slice(offset, offset + limit + 1);
            const page = streams.slice(0, limit);
            return {
              logStreams: page.map((s) => ({
                logStreamName: s.stream,
                creationTime: s.created,
                firstEventTimestamp: s.first,
                lastEventTimestamp: s.last,
                lastIngestionTime: s.last,
                arn: `arn:aws:logs:${request.region}:${LOCAL_ACCOUNT_ID}:log-group:${group}:log-stream:${s.stream}`,
              })),
              nextToken: streams.length > limit ? String(offset + limit) : undefined,
            };
          },
        } satisfies LogsOperations),
        "InvalidParameterException",
      ),
      "InvalidParameterException",
    ),
  };
}

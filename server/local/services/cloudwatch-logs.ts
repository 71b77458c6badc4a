import type { LogStore } from "../log-store.ts";
import { AwsError } from "../wire/aws-error.ts";
import type { JsonService } from "../wire/json-rpc.ts";
import { LOCAL_ACCOUNT_ID } from "../wire/request.ts";

function groupName(input: Record<string, unknown>): string {
  const name = input.logGroupName ?? input.logGroupIdentifier;
  if (typeof name !== "string" || name === "") {
    throw new AwsError("InvalidParameterException", "logGroupName or logGroupIdentifier is required");
  }
  return name.includes(":log-group:") ? (name.split(":log-group:")[1] ?? name).replace(/:\*$/, "") : name;
}

function limitOf(input: Record<string, unknown>, max: number): number {
  const limit = input.limit === undefined ? max : Number(input.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > max) {
    throw new AwsError("InvalidParameterException", `limit must be between 1 and ${max}`);
  }
  return limit;
}

function optionalNumber(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
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
    operations: {
      GetLogEvents(input) {
        const group = groupName(input);
        const stream = String(input.logStreamName ?? "");
        requireGroup(group);
        if (!logs.hasStream(group, stream)) {
          throw new AwsError("ResourceNotFoundException", "The specified log stream does not exist.");
        }
        const token = typeof input.nextToken === "string" ? input.nextToken : "";
        const tokenMatch = /^([fb])\/(\d+)$/.exec(token);
        if (token && !tokenMatch)
          throw new AwsError("InvalidParameterException", "The specified nextToken is invalid.");
        const limit = limitOf(input, 10_000);
        const direction = tokenMatch?.[1];
        const position = Number(tokenMatch?.[2] ?? 0);
        const events = logs.read(group, stream, {
          after: direction === "f" ? position : undefined,
          before: direction === "b" ? position : undefined,
          from: optionalNumber(input.startTime),
          to: optionalNumber(input.endTime),
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
        const group = groupName(input);
        requireGroup(group);
        const prefix = typeof input.logStreamNamePrefix === "string" ? input.logStreamNamePrefix : undefined;
        if (prefix !== undefined && input.logStreamNames !== undefined) {
          throw new AwsError("InvalidParameterException", "Cannot specify both logStreamNames and logStreamNamePrefix");
        }
        const streams = Array.isArray(input.logStreamNames)
          ? (input.logStreamNames as string[])
          : prefix !== undefined
            ? logs
                .streams(group)
                .map((s) => s.stream)
                .filter((stream) => stream.startsWith(prefix))
            : [null];
        const after = typeof input.nextToken === "string" ? Number(input.nextToken) || 0 : 0;
        const limit = limitOf(input, 10_000);
        const pattern =
          typeof input.filterPattern === "string" && input.filterPattern.trim() !== ""
            ? input.filterPattern.replaceAll('"', "")
            : undefined;
        const events = streams
          .flatMap((stream) =>
            logs.read(group, stream, {
              after,
              from: optionalNumber(input.startTime),
              to: optionalNumber(input.endTime),
              limit: limit + 1,
              fromHead: true,
              contains: pattern,
            }),
          )
          .sort((a, b) => a.id - b.id);
        const page = events.slice(0, limit);
        return {
          events: page.map((event) => ({
            logStreamName: event.stream,
            timestamp: event.timestamp,
            message: event.message,
            ingestionTime: event.timestamp,
            eventId: String(event.id),
          })),
          nextToken: events.length > limit ? String(page.at(-1)?.id) : undefined,
        };
      },
      DescribeLogStreams(input, request) {
        const group = groupName(input);
        requireGroup(group);
        const limit = limitOf(input, 50);
        const prefix = typeof input.logStreamNamePrefix === "string" ? input.logStreamNamePrefix : "";
        let streams = logs.streams(group).filter((s) => s.stream.startsWith(prefix));
        if (input.orderBy !== "LastEventTime") streams.sort((a, b) => a.stream.localeCompare(b.stream));
        if (input.descending === true && input.orderBy !== "LastEventTime") streams.reverse();
        if (input.orderBy === "LastEventTime" && input.descending !== true) streams.reverse();
        const offset = typeof input.nextToken === "string" ? Number(input.nextToken) || 0 : 0;
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
    },
  };
}

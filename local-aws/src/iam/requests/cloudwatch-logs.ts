import { type OperationAuthorization, type RequestFacts, str } from "./facts.ts";

/** A log group may be named by `logGroupName` or by `logGroupIdentifier` (its name or ARN). */
function groupOf(input: Record<string, unknown>): string {
  const name = str(input.logGroupName) || str(input.logGroupIdentifier);
  return name.includes(":log-group:") ? (name.split(":log-group:")[1] ?? name).replace(/:\*$/, "") : name;
}

function logGroupArn(facts: RequestFacts, group: string): string {
  return `arn:aws:logs:${facts.region}:${facts.accountId}:log-group:${group}`;
}

/** CloudWatch Logs: GetLogEvents on the log stream, the group-level reads on the log group. */
export const cloudWatchLogsAuthorization: Record<string, OperationAuthorization> = {
  GetLogEvents: (input, facts) => [
    {
      action: "logs:GetLogEvents",
      resource: `${logGroupArn(facts, groupOf(input))}:log-stream:${str(input.logStreamName)}`,
      context: {},
    },
  ],
  FilterLogEvents: (input, facts) => [
    { action: "logs:FilterLogEvents", resource: logGroupArn(facts, groupOf(input)), context: {} },
  ],
  DescribeLogStreams: (input, facts) => [
    { action: "logs:DescribeLogStreams", resource: logGroupArn(facts, groupOf(input)), context: {} },
  ],
};

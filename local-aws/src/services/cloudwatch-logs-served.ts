import { onlyValues, type Served } from "../wire/served-members.ts";

/**
 * The members of each CloudWatch Logs operation the local control plane acts on; any other member of the service
 * model is refused with InvalidParameterException (wire/served-members.ts). Not served: `unmask` (local logs hold
 * no data protection policy to unmask). FilterLogEvents' `interleaved` is served as AWS serves it: "ignored and
 * the value is assumed to be true".
 */
export const cloudWatchLogsServedMembers: Record<string, Served> = {
  GetLogEvents: {
    logGroupName: "served",
    logGroupIdentifier: "served",
    logStreamName: "served",
    startTime: "served",
    endTime: "served",
    nextToken: "served",
    limit: "served",
    startFromHead: "served",
    unmask: onlyValues(false),
  },
  FilterLogEvents: {
    logGroupName: "served",
    logGroupIdentifier: "served",
    logStreamNames: "served",
    logStreamNamePrefix: "served",
    startTime: "served",
    endTime: "served",
    filterPattern: "served",
    nextToken: "served",
    limit: "served",
    interleaved: "served",
    unmask: onlyValues(false),
  },
  DescribeLogStreams: "served",
};

import { type CloudWatchLogsClient, GetLogEventsCommand } from "@aws-sdk/client-cloudwatch-logs";
import type { Build, BuildLogs } from "../../contract/builds/builds.ts";
import { toAwsAppError } from "../aws/errors.ts";

/**
 * The build's log: the last `limit` lines, or with `after` (a token from the previous answer) only lines newer than
 * those. A stream CodeBuild has not created yet reads as no lines.
 */
export async function tailBuildLogs(
  logs: CloudWatchLogsClient,
  build: Pick<Build, "logs">,
  after: string | null,
  limit = 500,
): Promise<BuildLogs> {
  const { groupName, streamName } = build.logs;
  if (!groupName || !streamName) return { lines: [], nextToken: after };
  try {
    const page = await logs.send(
      new GetLogEventsCommand({
        logGroupName: groupName,
        logStreamName: streamName,
        limit,
        ...(after ? { nextToken: after, startFromHead: true } : { startFromHead: false }),
      }),
    );
    return {
      lines: (page.events ?? []).map((event) => ({
        timestamp: new Date(event.timestamp ?? 0).toISOString(),
        message: (event.message ?? "").replace(/\n$/, ""),
      })),
      nextToken: page.nextForwardToken ?? after,
    };
  } catch (error) {
    const mapped = toAwsAppError(error, `log of build`);
    if (mapped.status === 404) return { lines: [], nextToken: after };
    throw mapped;
  }
}

import type { S3Client } from "@aws-sdk/client-s3";
import type { MonitoringQuery, MonitoringResponse } from "../../contract/endpoints/monitoring.ts";
import { AppError } from "../http/app-error.ts";
import type { Db } from "../store/database.ts";
import { readNewCaptures } from "./capture-reader.ts";
import { captureTotals, decisionKinds, rollupsBetween } from "./monitoring-store.ts";
import { summarizeRollups, windowBounds } from "./monitoring-summary.ts";

/**
 * An endpoint's Monitoring view: the capture objects written since the last look are read first (a bounded
 * number), then the window's figures come from the store's rollups.
 */
export async function endpointMonitoring(
  deps: { s3: S3Client; db: Db; artifactBucket: string | null },
  endpointName: string,
  query: MonitoringQuery,
  now = new Date(),
): Promise<MonitoringResponse> {
  if (!deps.artifactBucket) {
    throw new AppError(
      "bad_request",
      "Monitoring reads captured invocations from the artifact bucket; set CONSOLE_ARTIFACT_BUCKET for the console.",
    );
  }
  const look = await readNewCaptures(deps.s3, deps.db, deps.artifactBucket, endpointName);
  const bounds = windowBounds(query.window, now);
  const rollups = rollupsBetween(deps.db, endpointName, bounds.fromMinute, bounds.toMinute, query.variant);
  const summary = summarizeRollups(rollups, decisionKinds(deps.db, endpointName), bounds, query.threshold);
  const totals = captureTotals(deps.db, endpointName);
  return {
    endpointName,
    from: new Date(bounds.fromMinute * 60_000).toISOString(),
    to: new Date(bounds.toMinute * 60_000).toISOString(),
    intervalSeconds: bounds.intervalMinutes * 60,
    threshold: query.threshold,
    variant: query.variant ?? null,
    source: {
      destination: look.destination,
      objectsRead: totals.objects,
      newObjects: look.newObjects,
      moreToRead: look.moreToRead,
      unreadableRecords: totals.unreadable,
    },
    ...summary,
  };
}

import { consoleContext } from "../context.ts";
import { startDriftPublisher } from "./drift.ts";

/** Starts publishing drift metrics every 5 minutes; called once when the server starts (instrumentation.ts). */
export function publishDriftOnSchedule(): void {
  const store = globalThis as { __driftPublisher?: () => void };
  if (store.__driftPublisher) return;
  store.__driftPublisher = startDriftPublisher(() => {
    const { aws, store, settings } = consoleContext();
    return { store, cloudWatch: aws.cloudWatch, s3: aws.s3, artifactBucket: settings.artifactBucket };
  });
}

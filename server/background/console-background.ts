import { resumePendingRestores, settledRestores } from "../autoscaling/pending-restores.ts";
import { consoleContext, evaluationDeps } from "../context.ts";
import { resumeShadowPromotions, settledPromotions } from "../endpoints/promotion-resume.ts";
import { resumeUnfinishedRuns, stopActiveRuns } from "../evaluate/runs/run-registry.ts";
import { captureReading } from "../monitoring/capture-reading.ts";
import { driftPublishing } from "../monitoring/drift.ts";
import { realisedPublishing } from "../monitoring/realised-publisher.ts";
import { releaseLeasesOf, replicaId } from "../store/leases.ts";
import { type BackgroundWork, startBackgroundWork } from "./background-work.ts";

/**
 * What every console replica looks for, again and again, and takes up when no other replica holds it: evaluation
 * runs left running (a batch run's transform job and an asynchronous run's requests are collected inside its
 * run), shadow promotions waiting for their update, autoscaling to register again after an update, reading new
 * capture objects into the Monitoring store, and drift and realised-quality publishing. A replica that dies stops renewing its
 * leases; within a lease (CONSOLE_LEASE_SECONDS) and half another replica's round has taken its work over.
 */
export function startConsoleBackgroundWork(): { stop(): Promise<void> } {
  const { config } = consoleContext();
  const leaseMs = config.CONSOLE_LEASE_SECONDS * 1000;
  const stopping = new AbortController();
  const work: BackgroundWork = startBackgroundWork([
    {
      name: "evaluation runs",
      everyMs: leaseMs / 2,
      async round() {
        const runs = await resumeUnfinishedRuns(evaluationDeps());
        if (runs.length > 0) log("evaluation runs running", { runs });
      },
    },
    {
      name: "shadow promotions",
      everyMs: leaseMs / 2,
      async round() {
        await resumeShadowPromotions(undefined, { signal: stopping.signal, lease: { ttlMs: leaseMs } });
      },
    },
    {
      name: "autoscaling restores",
      everyMs: leaseMs / 2,
      async round() {
        const { aws, store } = consoleContext();
        await resumePendingRestores({ aws, store }, { signal: stopping.signal, lease: { ttlMs: leaseMs } });
      },
    },
    captureReading(
      () => {
        const { aws, store, settings } = consoleContext();
        const { artifactBucket, resourceNamePrefix } = settings;
        return { s3: aws.s3, store, artifactBucket, resourceNamePrefix };
      },
      { ttlMs: leaseMs },
    ),
    driftPublishing(() => {
      const { aws, store } = consoleContext();
      return { store, cloudWatch: aws.cloudWatch };
    }),
    realisedPublishing(() => {
      const { aws, store, settings } = consoleContext();
      const clients = { cloudWatch: aws.cloudWatch, s3: aws.s3, sageMaker: aws.sageMaker };
      return { ...clients, store, artifactBucket: settings.artifactBucket };
    }),
  ]);
  log("background work started", { holder: replicaId(), leaseSeconds: config.CONSOLE_LEASE_SECONDS });
  return {
    async stop() {
      stopping.abort(new Error("the console is stopping"));
      await work.stop();
      await Promise.all([stopActiveRuns(), settledPromotions(), settledRestores()]);
      const released = await releaseLeasesOf(consoleContext().store, replicaId());
      log("background work stopped", { leasesReleased: released });
    },
  };
}

function log(msg: string, fields: Record<string, unknown>) {
  console.log(JSON.stringify({ level: "info", msg, ...fields }));
}

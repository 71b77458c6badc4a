import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as autoScaling from "@aws-sdk/client-application-auto-scaling";
import * as cloudWatch from "@aws-sdk/client-cloudwatch";
import * as logs from "@aws-sdk/client-cloudwatch-logs";
import * as codeBuild from "@aws-sdk/client-codebuild";
import * as ecr from "@aws-sdk/client-ecr";
import * as s3 from "@aws-sdk/client-s3";
import * as sageMaker from "@aws-sdk/client-sagemaker";
import * as runtime from "@aws-sdk/client-sagemaker-runtime";
import { type ControlPlane, localClientConfig, startControlPlane } from "@decision-console/local-aws";
import {
  applicationAutoScalingInputShapes,
  cloudWatchInputShapes,
  cloudWatchLogsInputShapes,
  codeBuildInputShapes,
  ecrInputShapes,
  type StructureShape,
  s3InputShapes,
  sageMakerInputShapes,
  sageMakerRuntimeInputShapes,
} from "@decision-console/local-aws/testing";
import { workspaceStackFixture } from "../../../infra/local-stack/workspace-fixture.ts";
import { probeInputs, seededRandom } from "./hostile-inputs.ts";

/**
 * The security probe of local mode with the console's own key (issue 51's "re-run of the whole probe"): every
 * operation local mode serves, sent with another team's names and with hostile values generated from its shape in
 * the service model, plus the cross-team S3 reads and writes the console's prefix must refuse. It counts what came
 * back; a 5xx, a crash or an accepted cross-team S3 request is a finding. Loopback only, bounded in count.
 */
export type ProbeReport = {
  requests: number;
  refused: number;
  accepted: number;
  /** The SDK refused to send the input (a client-side check). */
  unsent: number;
  serverErrors: string[];
  crossTeamAccepted: string[];
  crashes: number;
  healthyAfter: boolean;
};

type AnyClient = { send(command: unknown): Promise<unknown>; destroy(): void };
type Service = {
  name: string;
  shapes: Record<string, StructureShape>;
  module: Record<string, unknown>;
  client: (plane: ControlPlane) => AnyClient;
};

const asConsole = (plane: ControlPlane) => localClientConfig(plane, "console");

const SERVICES: Service[] = [
  {
    name: "sagemaker",
    shapes: sageMakerInputShapes,
    module: sageMaker,
    client: (p) => new sageMaker.SageMakerClient(asConsole(p)),
  },
  {
    name: "sagemaker-runtime",
    shapes: sageMakerRuntimeInputShapes,
    module: runtime,
    client: (p) => new runtime.SageMakerRuntimeClient(asConsole(p)),
  },
  {
    name: "codebuild",
    shapes: codeBuildInputShapes,
    module: codeBuild,
    client: (p) => new codeBuild.CodeBuildClient(asConsole(p)),
  },
  { name: "ecr", shapes: ecrInputShapes, module: ecr, client: (p) => new ecr.ECRClient(asConsole(p)) },
  {
    name: "cloudwatch",
    shapes: cloudWatchInputShapes,
    module: cloudWatch,
    client: (p) => new cloudWatch.CloudWatchClient(asConsole(p)),
  },
  {
    name: "logs",
    shapes: cloudWatchLogsInputShapes,
    module: logs,
    client: (p) => new logs.CloudWatchLogsClient(asConsole(p)),
  },
  {
    name: "application-autoscaling",
    shapes: applicationAutoScalingInputShapes,
    module: autoScaling,
    client: (p) => new autoScaling.ApplicationAutoScalingClient(asConsole(p)),
  },
  {
    name: "s3",
    shapes: s3InputShapes,
    module: s3,
    client: (p) => new s3.S3Client({ ...asConsole(p), forcePathStyle: true }),
  },
];

/** Another team's keys in the console's bucket: each read or write with the console's key must be refused. */
const OTHER_TEAM_KEYS = [
  "data-capture/team-b-prod/AllTraffic/2026/01/01/00/capture.jsonl",
  "async/team-b-prod/out/result.out",
  "async/team-b-prod/in/request.json",
  "evaluation-reports/team-b-group/report.json",
];

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

async function crossTeamS3(plane: ControlPlane, report: ProbeReport): Promise<void> {
  const bucket = plane.bucket;
  const admin = new s3.S3Client({ ...localClientConfig(plane, "admin"), forcePathStyle: true });
  const console = new s3.S3Client({ ...asConsole(plane), forcePathStyle: true });
  for (const key of OTHER_TEAM_KEYS) {
    await admin.send(new s3.PutObjectCommand({ Bucket: bucket, Key: key, Body: "theirs" }));
  }
  const attempts: [string, () => Promise<unknown>][] = OTHER_TEAM_KEYS.flatMap((key) => [
    [`GetObject ${key}`, () => console.send(new s3.GetObjectCommand({ Bucket: bucket, Key: key }))],
    [`HeadObject ${key}`, () => console.send(new s3.HeadObjectCommand({ Bucket: bucket, Key: key }))],
    [`PutObject ${key}`, () => console.send(new s3.PutObjectCommand({ Bucket: bucket, Key: key, Body: "ours" }))],
    [`DeleteObject ${key}`, () => console.send(new s3.DeleteObjectCommand({ Bucket: bucket, Key: key }))],
    [
      `ListObjectsV2 ${path.posix.dirname(key)}/`,
      () => console.send(new s3.ListObjectsV2Command({ Bucket: bucket, Prefix: `${path.posix.dirname(key)}/` })),
    ],
  ]);
  for (const [what, attempt] of attempts) {
    report.requests++;
    try {
      await attempt();
      report.accepted++;
      report.crossTeamAccepted.push(what);
    } catch (error) {
      const status = statusOf(error);
      if (status === undefined) report.unsent++;
      else if (status >= 500) report.serverErrors.push(`s3 ${what}: ${status}`);
      else report.refused++;
    }
  }
  admin.destroy();
  console.destroy();
}

/** Probes a control plane with `perOperation` inputs for every served operation. */
export async function probeControlPlane(plane: ControlPlane, perOperation: number, seed = 51): Promise<ProbeReport> {
  const report: ProbeReport = {
    requests: 0,
    refused: 0,
    accepted: 0,
    unsent: 0,
    serverErrors: [],
    crossTeamAccepted: [],
    crashes: 0,
    healthyAfter: false,
  };
  const crashed = () => {
    report.crashes++;
  };
  process.on("uncaughtException", crashed);
  process.on("unhandledRejection", crashed);
  const random = seededRandom(seed);
  try {
    await crossTeamS3(plane, report);
    for (const service of SERVICES) {
      const client = service.client(plane);
      for (const [operation, shape] of Object.entries(service.shapes)) {
        const Command = service.module[`${operation}Command`] as (new (input: unknown) => unknown) | undefined;
        if (!Command) continue;
        for (const input of probeInputs(shape, perOperation, random)) {
          let command: unknown;
          try {
            command = new Command(input);
          } catch {
            report.unsent++;
            continue;
          }
          try {
            await client.send(command);
            report.requests++;
            report.accepted++;
          } catch (error) {
            const status = statusOf(error);
            if (status === undefined) {
              report.unsent++;
              continue;
            }
            report.requests++;
            if (status >= 500) {
              report.serverErrors.push(
                `${service.name} ${operation} ${status}: ${JSON.stringify(input).slice(0, 300)}`,
              );
            } else report.refused++;
          }
        }
      }
      client.destroy();
    }
    const health = await fetch(`${plane.url}/_local/health`).catch(() => undefined);
    report.healthyAfter = health?.status === 200;
  } finally {
    process.off("uncaughtException", crashed);
    process.off("unhandledRejection", crashed);
  }
  return report;
}

/** Starts a control plane of its own on a fresh data directory, probes it and stops it. */
export async function runProbe(perOperation: number): Promise<ProbeReport> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "security-probe-"));
  const plane = await startControlPlane({
    dataDir,
    fixture: workspaceStackFixture(),
    port: 0,
    waitForEndpoints: false,
  });
  try {
    return await probeControlPlane(plane, perOperation);
  } finally {
    await plane.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const perOperation = Number(process.argv[2] ?? 40);
  const started = Date.now();
  const report = await runProbe(perOperation);
  console.log(JSON.stringify({ perOperation, seconds: Math.round((Date.now() - started) / 1000), ...report }, null, 2));
  process.exit(
    report.serverErrors.length + report.crossTeamAccepted.length + report.crashes > 0 || !report.healthyAfter ? 1 : 0,
  );
}

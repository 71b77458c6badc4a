import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  CreateEndpointCommand,
  CreateEndpointConfigCommand,
  DescribeEndpointCommand,
  SageMakerClient,
  UpdateEndpointCommand,
} from "@aws-sdk/client-sagemaker";
import { localClientConfig, startControlPlane } from "@decision-console/local-aws";
import { createAdapterModel, routeDecision } from "@decision-console/local-aws/testing";
import { benchModel, benchOut } from "../adapter/bench/bench-files.ts";
import type { ModelKind } from "../adapter/test/support/llama-model.ts";
import { type DeploymentConfig, deploymentPlan } from "../contract/endpoints/deployment-plan.ts";
import { workspaceStackFixture } from "../infra/local-stack/workspace-fixture.ts";
import { consoleClientsFor } from "../server/aws/local-console-clients.ts";
import { invokeEndpoint } from "../server/invoke/invoke.ts";

/**
 * npm run bench:update-load -- [--kind tiny] [--instances 4] [--clients 4] [--wait 10] [--threads 1]
 *
 * A linear blue/green UpdateEndpoint under load, on loopback only: a local endpoint of `--instances` adapter
 * processes at SEMIF_TEMPERATURE 1 moves to a configuration at temperature 3 in steps of one instance, each step
 * baking `--wait` seconds, while `--clients` concurrent callers invoke it through the console's invoke path. The two
 * temperatures give different probabilities, so every answer says which fleet served it. It prints, per second of
 * the update, the requests, the failures and each fleet's share, beside the plan's steps, and ends with one JSON
 * line on stdout (also bench/out/update-load.json). It stops when the endpoint is InService on the new configuration.
 */
const { values } = parseArgs({
  options: {
    kind: { type: "string", default: "tiny" },
    instances: { type: "string", default: "4" },
    clients: { type: "string", default: "4" },
    wait: { type: "string", default: "10" },
    threads: { type: "string", default: "1" },
  },
});
const instances = Number(values.instances);
const ENDPOINT = "dc-bench-update";
const deploymentConfig: DeploymentConfig = {
  BlueGreenUpdatePolicy: {
    TrafficRoutingConfiguration: {
      Type: "LINEAR",
      LinearStepSize: { Type: "INSTANCE_COUNT", Value: 1 },
      WaitIntervalInSeconds: Number(values.wait),
    },
    TerminationWaitInSeconds: 0,
  },
};
const UPDATE_LIMIT_MS = (deploymentPlan(deploymentConfig, instances).waitSeconds + 300) * 1000;

interface Answer {
  atMs: number;
  fleet: "old" | "new" | "failed";
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-update-load-"));
process.env.LOCAL_ADAPTER_THREADS = values.threads;
const plane = await startControlPlane({
  dataDir: path.join(dataDir, "plane"),
  port: 0,
  fixture: workspaceStackFixture(),
});
try {
  const config = localClientConfig(plane, "admin");
  const sageMaker = new SageMakerClient(config);
  // invokeEndpoint is the console's, so it runs on the console's own clients.
  const { runtime } = consoleClientsFor(plane);
  const gguf = benchModel(values.kind as ModelKind);
  for (const temperature of ["1", "3"]) {
    const name = `${ENDPOINT}-t${temperature}`;
    await createAdapterModel(plane, name, gguf, path.join(dataDir, name), { SEMIF_TEMPERATURE: temperature });
    await sageMaker.send(
      new CreateEndpointConfigCommand({
        EndpointConfigName: name,
        ProductionVariants: [
          {
            VariantName: "AllTraffic",
            ModelName: name,
            InstanceType: "ml.c6i.xlarge",
            InitialInstanceCount: instances,
          },
        ],
      }),
    );
  }
  await sageMaker.send(new CreateEndpointCommand({ EndpointName: ENDPOINT, EndpointConfigName: `${ENDPOINT}-t1` }));
  await plane.endpoints.settled(ENDPOINT);

  /** The probabilities to 3 places: the same for every instance of a fleet, different between the temperatures. */
  const signature = async () => {
    const { body } = await invokeEndpoint(runtime, ENDPOINT, routeDecision);
    return (body as { result: { probabilities: number[] } }).result.probabilities.map((p) => p.toFixed(3)).join();
  };
  const oldSignature = await signature();

  const answers: Answer[] = [];
  let stopped = false;
  const started = Date.now();
  const callers = Array.from({ length: Number(values.clients) }, async () => {
    while (!stopped) {
      const fleet = await signature().then(
        (s): Answer["fleet"] => (s === oldSignature ? "old" : "new"),
        (): Answer["fleet"] => "failed",
      );
      answers.push({ atMs: Date.now() - started, fleet });
    }
  });
  await sageMaker.send(
    new UpdateEndpointCommand({
      EndpointName: ENDPOINT,
      EndpointConfigName: `${ENDPOINT}-t3`,
      DeploymentConfig: deploymentConfig,
    }),
  );
  let status: string | undefined;
  while (Date.now() - started < UPDATE_LIMIT_MS) {
    const endpoint = await sageMaker.send(new DescribeEndpointCommand({ EndpointName: ENDPOINT }));
    status = endpoint.EndpointStatus;
    if (status !== "Updating") break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const updateSeconds = (Date.now() - started) / 1000;
  stopped = true;
  await Promise.all(callers);
  if (status !== "InService") throw new Error(`the update ended ${status ?? "unknown"} after ${updateSeconds} s`);

  const seconds = Math.ceil(updateSeconds);
  const timeline = Array.from({ length: seconds }, (_, second) => {
    const inSecond = answers.filter((a) => Math.floor(a.atMs / 1000) === second);
    const served = inSecond.filter((a) => a.fleet !== "failed");
    const share = (fleet: Answer["fleet"]) =>
      served.length === 0 ? null : Math.round((served.filter((a) => a.fleet === fleet).length / served.length) * 100);
    return {
      second,
      requests: inSecond.length,
      failed: inSecond.length - served.length,
      oldFleetPercent: share("old"),
      newFleetPercent: share("new"),
    };
  });
  const plan = deploymentPlan(deploymentConfig, instances);
  process.stderr.write(
    `plan: ${plan.steps.map((s) => `${Math.round(s.newFleetShare * 100)}% new for ${s.bakeSeconds} s`).join(", ")}\n`,
  );
  process.stderr.write("| s | requests | failed | old fleet % | new fleet % |\n|---:|---:|---:|---:|---:|\n");
  for (const row of timeline) {
    process.stderr.write(
      `| ${row.second} | ${row.requests} | ${row.failed} | ${row.oldFleetPercent ?? "-"} | ${row.newFleetPercent ?? "-"} |\n`,
    );
  }
  const result = {
    bench: "update-load",
    kind: values.kind,
    instances,
    clients: Number(values.clients),
    stepWaitSeconds: Number(values.wait),
    updateSeconds,
    requests: answers.length,
    failed: answers.filter((a) => a.fleet === "failed").length,
    plannedNewFleetShares: plan.steps.map((s) => s.newFleetShare),
    timeline,
    cpus: os.availableParallelism(),
    loadAverage1m: os.loadavg()[0] ?? 0,
  };
  fs.mkdirSync(benchOut, { recursive: true });
  fs.writeFileSync(path.join(benchOut, "update-load.json"), `${JSON.stringify(result)}\n`);
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await plane.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

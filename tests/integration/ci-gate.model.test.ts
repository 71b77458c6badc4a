import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { SageMakerClient } from "@aws-sdk/client-sagemaker";
import { InvokeEndpointCommand, SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import {
  type ControlPlane,
  localAwsEnvironment,
  localClientConfig,
  startControlPlane,
} from "@decision-console/local-aws";
import {
  createEndpoint,
  localAdapterImageUri,
  testExecutionRoleArn,
  testStackFixture,
  writeTinyModel,
} from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * `npx decision-console gate` as a CI step runs it: the package's bin, in its own process, with local mode's
 * credentials profile and endpoint variables, against real adapter processes of the tiny model. The same model
 * deployed twice passes; one whose SEMIF_TEMPERATURE flattens its probabilities (same choices, far fewer of them above
 * the baseline's median confidence, the threshold given) fails on coverage.
 */
const repoRoot = path.resolve(import.meta.dirname, "../..");
const BASE = "dc-gate-base";
const SAME = "dc-gate-same";
const FLATTENED = "dc-gate-flattened";
const ITEMS = 60;

let dir: string;
let plane: ControlPlane;
let dataset: string;
let decisions: string[];
/**
 * The baseline's median confidence on the dataset, asked of it directly: the tiny model's weights are random for
 * each test run, so a fixed threshold could sit above all its answers. At temperature 20 each answer's confidence
 * falls below what it was at 1, so about half the items leave the threshold.
 */
let threshold: string;

function labelledDecisions(count: number): string[] {
  const topics = ["a duplicate charge", "a late parcel", "a broken login", "an invoice address", "a cancelled plan"];
  return Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      id: `ticket-${i}`,
      state: `Ticket ${i}: the customer writes about ${topics[i % topics.length]} (order ${1000 + i * 7}).`,
      question: "Does this ticket need a refund?",
      options: [
        { id: "no", description: "No refund" },
        { id: "yes", description: "Refund the customer" },
      ],
      answer: i % 3 === 0 ? "no" : "yes",
    }),
  );
}

async function medianConfidence(runtime: SageMakerRuntimeClient, endpointName: string): Promise<number> {
  const confidences: number[] = [];
  for (const line of decisions) {
    const { answer: _, ...decision } = JSON.parse(line);
    const answer = await runtime.send(
      new InvokeEndpointCommand({
        EndpointName: endpointName,
        ContentType: "application/json",
        Body: JSON.stringify({ decision }),
      }),
    );
    const body = JSON.parse(new TextDecoder().decode(answer.Body));
    confidences.push(Math.max(...(body.result.probabilities as number[])));
  }
  confidences.sort((a, b) => a - b);
  return confidences[Math.floor(confidences.length / 2)] as number;
}

interface GateRun {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
}

function gate(args: string[], env: Record<string, string> = {}): Promise<GateRun> {
  const started = performance.now();
  const child = spawn(process.execPath, ["bin/decision-console.mjs", "gate", ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...localAwsEnvironment(plane), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) =>
    child.on("exit", (code) => resolve({ code, stdout, stderr, seconds: (performance.now() - started) / 1000 })),
  );
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ci-gate-"));
  const gguf = path.join(dir, "tiny.gguf");
  writeTinyModel(gguf);
  dataset = path.join(dir, "tickets.jsonl");
  decisions = labelledDecisions(ITEMS);
  fs.writeFileSync(dataset, decisions.join("\n"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir: path.join(dir, "aws"), port: 0 });
  const admin = localClientConfig(plane, "admin");
  await new S3Client({ ...admin, forcePathStyle: true }).send(
    new PutObjectCommand({ Bucket: plane.bucket, Key: "models/gate/model.gguf", Body: fs.readFileSync(gguf) }),
  );
  const sageMaker = new SageMakerClient(admin);
  const deploy = (name: string, environment: Record<string, string> = {}) =>
    createEndpoint(
      sageMaker,
      name,
      {
        Image: localAdapterImageUri(plane),
        ModelDataSource: {
          S3DataSource: { S3Uri: `s3://${plane.bucket}/models/gate/`, S3DataType: "S3Prefix", CompressionType: "None" },
        },
        Environment: { ADAPTER_THREADS: "1", ...environment },
      },
      { executionRoleArn: testExecutionRoleArn() },
    );
  await deploy(BASE);
  await deploy(SAME);
  await deploy(FLATTENED, { SEMIF_TEMPERATURE: "20" });
  await Promise.all([BASE, SAME, FLATTENED].map((name) => plane.endpoints.settled(name)));
  threshold = String(await medianConfidence(new SageMakerRuntimeClient(admin), BASE));
}, 300_000);

afterAll(async () => {
  await plane?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the CI gate on local mode", { timeout: 300_000 }, () => {
  it("passes (exit 0) an endpoint that serves the baseline's model unchanged, writing both reports", async () => {
    const junit = path.join(dir, "same", "gate.xml");
    const summary = path.join(dir, "same", "summary.md");
    const run = await gate([
      "--dataset",
      dataset,
      "--endpoint",
      SAME,
      "--baseline-endpoint",
      BASE,
      "--threshold",
      threshold,
      "--max-p95-latency-rise",
      "1",
      "--junit",
      junit,
      "--summary",
      summary,
    ]);
    expect(run.stderr).not.toContain("decision-console gate:");
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`decision-console gate: ${SAME} against ${BASE}, ${ITEMS} items`);
    expect(fs.readFileSync(junit, "utf8")).toContain('tests="6" failures="0"');
    expect(fs.readFileSync(summary, "utf8")).toContain("**Passed**");
  });

  it("fails (exit 1) an endpoint whose temperature leaves fewer decisions above the threshold, naming coverage", async () => {
    const junit = path.join(dir, "flattened", "gate.xml");
    const run = await gate([
      "--dataset",
      dataset,
      "--endpoint",
      FLATTENED,
      "--baseline-endpoint",
      BASE,
      "--threshold",
      threshold,
      "--max-coverage-drop",
      "0.1",
      "--max-p95-latency-rise",
      "1",
      "--junit",
      junit,
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/Coverage at threshold: .*: REGRESSION$/m);
    expect(run.stdout).toMatch(/^ {2}Accuracy: .*McNemar exact p = 1\.0000\)$/m);
    expect(fs.readFileSync(junit, "utf8")).toMatch(
      /<testcase classname="decision-console.gate" name="Coverage at threshold" time="0">\n {6}<failure /,
    );
  });

  it("refuses (exit 2) an endpoint that does not exist, naming it", async () => {
    const run = await gate(["--dataset", dataset, "--endpoint", "dc-gate-missing", "--baseline-endpoint", BASE]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("dc-gate-missing");
  });

  it("fails (exit 3) when SageMaker cannot be reached", async () => {
    const run = await gate(["--dataset", dataset, "--endpoint", SAME, "--baseline-endpoint", BASE], {
      AWS_ENDPOINT_URL_SAGEMAKER: "http://127.0.0.1:9",
      AWS_MAX_ATTEMPTS: "1",
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("infrastructure failure");
  });

  const jevbench = path.resolve(repoRoot, "../shared/bench/jevbench.jsonl");
  const haveJevbench = fs.existsSync(jevbench);
  it.skipIf(!haveJevbench)(
    haveJevbench
      ? "measures the gate's run time on the 231 JevBench items"
      : "measures the gate's run time on the 231 JevBench items: SKIPPED, ../shared/bench/jevbench.jsonl is absent",
    { timeout: 1_800_000 },
    async () => {
      const run = await gate([
        "--dataset",
        jevbench,
        "--endpoint",
        SAME,
        "--baseline-endpoint",
        BASE,
        "--max-p95-latency-rise",
        "1",
      ]);
      console.log(`gate on 231 JevBench items, tiny model, two endpoints: ${run.seconds.toFixed(1)} s\n${run.stdout}`);
      expect(run.stdout).toContain(", 231 items");
      expect(run.code, run.stdout + run.stderr).toBe(0);
    },
  );
});

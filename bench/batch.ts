import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { CreateTransformJobCommand, DescribeTransformJobCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { localClientConfig, startControlPlane } from "@decision-console/local-aws";
import { createAdapterModel } from "@decision-console/local-aws/testing";
import { benchModel, benchOut, jevbenchRows } from "../adapter/bench/bench-files.ts";
import type { ModelKind } from "../adapter/test/support/llama-model.ts";
import { LOCAL_ARTIFACT_BUCKET, workspaceStackFixture } from "../infra/local-stack/workspace-fixture.ts";

/**
 * npm run bench:batch -- [--kind bench-0.5b] [--records 96] [--instances 1,2,4] [--threads 1]
 *
 * Local Batch Transform throughput: the same JevBench decisions (the reading cache off, so nothing is answered from
 * a repeat) through one transform job per instance count, on the same generated model, side by side in one run.
 * Records per second are counted from the first answered record to the last, so the instances' start-up (loading
 * the model) is not in the rate; it is reported apart. Each instance is one adapter process with `--threads`
 * threads: scaling stops where the instances' threads exceed this machine's cores. The result is one JSON line on
 * stdout (also bench/out/batch.json).
 */
const { values } = parseArgs({
  options: {
    kind: { type: "string", default: "bench-0.5b" },
    records: { type: "string", default: "96" },
    instances: { type: "string", default: "1,2,4" },
    threads: { type: "string", default: "1" },
  },
});
const counts = values.instances.split(",").map(Number);
// Rows short enough for every generated model's token budget (the tiny model's is 4096 tokens of about a byte each).
const rows = jevbenchRows().filter((row) => JSON.stringify(row).length < 3000);
const records = Array.from({ length: Number(values.records) }, (_, index) => {
  const row = rows[index % rows.length]!;
  // Repeats of a row get their own id and state, so no record is a repeat of another.
  const copy = Math.floor(index / rows.length);
  return {
    decision: {
      id: `${row.id}-${copy}`,
      state: copy === 0 ? row.state : `${String(row.state)} (copy ${copy})`,
      question: row.question,
      options: row.options,
    },
  };
});

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-batch-"));
process.env.LOCAL_ADAPTER_THREADS = values.threads;
const plane = await startControlPlane({
  dataDir: path.join(dataDir, "plane"),
  port: 0,
  fixture: workspaceStackFixture(),
});
try {
  const sageMaker = new SageMakerClient(localClientConfig(plane, "admin"));
  await createAdapterModel(plane, "dc-bench-batch", benchModel(values.kind as ModelKind), dataDir, {
    ADAPTER_READING_CACHE: "0",
  });
  const input = "batch/inputs/bench/records.jsonl";
  await plane.objects.putObject(
    LOCAL_ARTIFACT_BUCKET,
    input,
    Buffer.from(records.map((record) => `${JSON.stringify(record)}\n`).join("")),
  );
  const results: { instances: number; startupSeconds: number; seconds: number; recordsPerSecond: number }[] = [];
  for (const instances of counts) {
    const name = `dc-bench-${instances}`;
    const created = Date.now();
    await sageMaker.send(
      new CreateTransformJobCommand({
        TransformJobName: name,
        ModelName: "dc-bench-batch",
        TransformInput: {
          DataSource: { S3DataSource: { S3DataType: "S3Prefix", S3Uri: `s3://${LOCAL_ARTIFACT_BUCKET}/${input}` } },
          ContentType: "application/jsonlines",
          SplitType: "Line",
        },
        TransformOutput: {
          S3OutputPath: `s3://${LOCAL_ARTIFACT_BUCKET}/batch/outputs/bench/${name}/`,
          AssembleWith: "Line",
        },
        TransformResources: { InstanceType: "ml.c6i.xlarge", InstanceCount: instances },
      }),
    );
    let ended = false;
    const settled = plane.transforms.settled(name).then(() => {
      ended = true;
    });
    while (!ended && plane.transforms.recordsDone(name) === 0) await new Promise((r) => setTimeout(r, 20));
    const first = Date.now();
    const firstDone = plane.transforms.recordsDone(name);
    await settled;
    const last = Date.now();
    const job = await sageMaker.send(new DescribeTransformJobCommand({ TransformJobName: name }));
    if (job.TransformJobStatus !== "Completed") throw new Error(`${name}: ${job.FailureReason}`);
    const seconds = (last - first) / 1000;
    const measured = records.length - firstDone;
    results.push({
      instances,
      startupSeconds: (first - created) / 1000,
      seconds,
      recordsPerSecond: seconds > 0 ? measured / seconds : Number.NaN,
    });
    process.stderr.write(`${instances} instance(s): ${results.at(-1)?.recordsPerSecond.toFixed(2)} records/s\n`);
  }
  const base = results[0]?.recordsPerSecond ?? Number.NaN;
  const result = {
    bench: "batch",
    kind: values.kind,
    records: records.length,
    threadsPerInstance: Number(values.threads),
    cpus: os.availableParallelism(),
    runs: results.map((run) => ({ ...run, speedup: run.recordsPerSecond / base })),
  };
  fs.mkdirSync(benchOut, { recursive: true });
  fs.writeFileSync(path.join(benchOut, "batch.json"), `${JSON.stringify(result)}\n`);
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await plane.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ApplicationAutoScalingClient, DescribeScalableTargetsCommand } from "@aws-sdk/client-application-auto-scaling";
import { DescribeEndpointCommand, DescribeEndpointConfigCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { mockClient } from "aws-sdk-client-mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCsv } from "@/server/evaluate/datasets/csv.ts";
import { type FakeEndpoint, startFakeDecisionEndpoint } from "@/tests/support/evaluate/fake-decision-endpoint.ts";

// The routes read their database and SageMaker Runtime endpoint from the environment, as in local mode.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "evaluation-routes-"));
const saved = { ...process.env };
let fake: FakeEndpoint;
// DescribeEndpoint (the check before a run starts): the endpoints these tests run on are InService, "creating"
// is still Creating, and any other name does not exist, in the words SageMaker uses. Their configurations are
// real-time (no AsyncInferenceConfig), which the runner's invoker reads to choose InvokeEndpoint.
const sageMaker = mockClient(SageMakerClient);
mockClient(ApplicationAutoScalingClient).on(DescribeScalableTargetsCommand).resolves({ ScalableTargets: [] });
const endpointStatus: Record<string, string> = { creating: "Creating" };
let datasets: typeof import("../datasets/route.ts");
let dataset: typeof import("../datasets/[id]/route.ts");
let evaluations: typeof import("./route.ts");
let evaluation: typeof import("./[id]/route.ts");
let cancel: typeof import("./[id]/cancel/route.ts");
let retryFailed: typeof import("./[id]/retry-failed/route.ts");
let exporter: typeof import("./[id]/export/route.ts");

const base = "http://127.0.0.1:3000";
const params = (id: string) => ({ params: Promise.resolve({ id }) });
const json = (url: string, body: unknown, method = "POST") =>
  new Request(`${base}${url}`, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const get = (url: string) => new Request(`${base}${url}`);

const line = (id: string, answer: string) =>
  JSON.stringify({
    id,
    state: "The invoice is overdue by 40 days.",
    question: "Escalate?",
    options: [
      { id: "no", description: "Wait" },
      { id: "yes", description: "Escalate" },
    ],
    answer,
  });

async function datasetCount(): Promise<number> {
  return ((await (await datasets.GET(get("/api/datasets"))).json()) as { datasets: unknown[] }).datasets.length;
}

async function createDataset(name: string, count: number): Promise<string> {
  const text = Array.from({ length: count }, (_, i) => line(`${name}-${i}`, i % 2 ? "yes" : "no")).join("\n");
  const response = await datasets.POST(json("/api/datasets", { name, text }));
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function waitForEnd(id: string) {
  for (;;) {
    const detail = (await (await evaluation.GET(get(`/api/evaluations/${id}`), params(id))).json()) as {
      status: string;
    };
    if (detail.status !== "running") return detail as Record<string, unknown> & { status: string };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  fake = await startFakeDecisionEndpoint({ failIds: { "flaky-0": 500 } });
  Object.assign(process.env, {
    CONSOLE_DATA_DIR: dataDir,
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "AKIDEXAMPLELOCAL",
    AWS_SECRET_ACCESS_KEY: "local-secret",
    AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME: fake.url,
  });
  sageMaker.on(DescribeEndpointCommand).callsFake(async ({ EndpointName }: { EndpointName: string }) => {
    if (EndpointName.startsWith("ghost")) {
      throw Object.assign(new Error(`Could not find endpoint "${EndpointName}".`), { name: "ValidationException" });
    }
    return {
      EndpointName,
      EndpointConfigName: EndpointName,
      EndpointStatus: endpointStatus[EndpointName] ?? "InService",
    };
  });
  sageMaker
    .on(DescribeEndpointConfigCommand)
    .callsFake(async ({ EndpointConfigName }: { EndpointConfigName: string }) => ({
      EndpointConfigName,
      ProductionVariants: [],
    }));
  datasets = await import("../datasets/route.ts");
  dataset = await import("../datasets/[id]/route.ts");
  evaluations = await import("./route.ts");
  evaluation = await import("./[id]/route.ts");
  cancel = await import("./[id]/cancel/route.ts");
  retryFailed = await import("./[id]/retry-failed/route.ts");
  exporter = await import("./[id]/export/route.ts");
});

afterAll(async () => {
  await fake.close();
  process.env = saved;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("dataset routes", () => {
  it("stores a valid JSON Lines upload and lists it beside the built-in sample", async () => {
    const id = await createDataset("invoices", 4);
    const list = (await (await datasets.GET(get("/api/datasets"))).json()) as {
      datasets: { id: string; itemCount: number }[];
      samples: { name: string; available: boolean }[];
    };
    expect(list.datasets.find((candidate) => candidate.id === id)?.itemCount).toBe(4);
    expect(list.samples).toEqual([expect.objectContaining({ name: "jevbench", available: true })]);
    const detail = (await (await dataset.GET(get(`/api/datasets/${id}`), params(id))).json()) as {
      answers: Record<string, number>;
    };
    expect(detail.answers).toEqual({ no: 2, yes: 2 });
  });

  it("accepts a multipart CSV file", async () => {
    const form = new FormData();
    const csv = 'id,state,question,options,answer\nr1,"Late, twice",Escalate?,no|yes,yes\n';
    form.set("file", new File([csv], "late.csv", { type: "text/csv" }));
    const response = await datasets.POST(new Request(`${base}/api/datasets`, { method: "POST", body: form }));
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ name: "late", format: "csv", itemCount: 1 });
  });

  it("refuses a file with bad rows with each line named, and stores nothing", async () => {
    const before = await datasetCount();
    const text = [line("a", "no"), line("b", "perhaps"), "{oops"].join("\n");
    const response = await datasets.POST(json("/api/datasets", { name: "broken", text }));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string; details: { errors: { line: number }[] } } };
    expect(body.error.message).toMatch(/^The JSONL file has problems: line 2: answer: "perhaps" is not one of/);
    expect(body.error.details.errors.map((error) => error.line)).toEqual([2, 3]);
    expect(await datasetCount()).toBe(before);
  });

  it("stores System One and OpenAI Decisions rows as decision items, one per question, and refuses a bad one by line and field", async () => {
    const systemOne = {
      id: "s1",
      model: "jev-latest",
      state: "The invoice is overdue by 40 days.",
      questions: {
        escalate: { type: "noul", instructions: "Escalate?" },
        team: { type: "choice", instructions: "Which team?", criteria: { billing: null, legal: "Lawyers" } },
      },
      expected: { escalate: true, team: "billing" },
    };
    const openAi = {
      id: "o1",
      model: "gpt-6-luna",
      input: "The invoice is overdue by 40 days.",
      questions: [
        { type: "predicate", name: "escalate", instructions: "Escalate?" },
        { type: "score", name: "risk", instructions: "How risky?", levels: [{ label: "low" }, { label: "high" }] },
      ],
      expected: [false, "high"],
    };
    const text = [JSON.stringify(systemOne), JSON.stringify(openAi)].join("\n");
    const response = await datasets.POST(json("/api/datasets", { name: "both-protocols", text }));
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    const detail = (await (await dataset.GET(get(`/api/datasets/${id}`), params(id))).json()) as {
      itemCount: number;
      answers: Record<string, number>;
    };
    expect(detail.itemCount).toBe(4);
    expect(detail.answers).toEqual({ yes: 1, billing: 1, false: 1, high: 1 });

    const bad = { ...openAi, expected: [false, "medium"] };
    const refused = await datasets.POST(
      json("/api/datasets", { name: "bad", text: [JSON.stringify(systemOne), JSON.stringify(bad)].join("\n") }),
    );
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      'The JSONL file has problems: line 2: expected[1]: "medium" is not one of low, high',
    );
  });

  it("answers 415 for a body that is not JSON or a form, and 400 for a JSON body of the wrong shape", async () => {
    const plain = new Request(`${base}/api/datasets`, {
      method: "POST",
      body: "x",
      headers: { "content-type": "text/plain" },
    });
    expect((await datasets.POST(plain)).status).toBe(415);
    expect((await datasets.POST(json("/api/datasets", { name: "x" }))).status).toBe(400);
  });

  it("adds the JevBench sample once", async () => {
    const first = (await (await datasets.POST(json("/api/datasets", { sample: "jevbench" }))).json()) as { id: string };
    const second = (await (await datasets.POST(json("/api/datasets", { sample: "jevbench" }))).json()) as {
      id: string;
    };
    expect(second.id).toBe(first.id);
    const unknown = await datasets.POST(json("/api/datasets", { sample: "nope" }));
    expect(unknown.status).toBe(404);
  });
});

describe("evaluation routes", () => {
  it("rejects bad requests with a message and creates nothing", async () => {
    const id = await createDataset("bad-requests", 2);
    const count = async () =>
      ((await (await evaluations.GET(get("/api/evaluations"))).json()) as { evaluations: unknown[] }).evaluations
        .length;
    const before = await count();
    const cases: [unknown, RegExp][] = [
      [{ datasetId: "missing", endpoints: ["cpu"] }, /there is no dataset missing/],
      [{ datasetId: id, endpoints: [] }, /choose an endpoint/],
      [{ datasetId: id, endpoints: ["a", "b", "c"] }, /at most two endpoints/],
      [{ datasetId: id, endpoints: ["a", "a"] }, /two different endpoints/],
      [{ datasetId: id, endpoints: ["no spaces"] }, /endpoints\.0: Only letters, digits and hyphens/],
      [{ datasetId: id, endpoints: ["a"], concurrency: 0 }, /concurrency/],
      [{ datasetId: id }, /choose an endpoint \(or a model in batch\)/],
      [
        { datasetId: id, endpoints: ["a"], batch: { modelName: "m", instanceType: "ml.c6i.large" } },
        /endpoints or one model in a batch transform job, not both/,
      ],
      [{ datasetId: id, batch: { modelName: "m", instanceType: "ml.g6e.xlarge" } }, /runs the cpu image only/],
      [{ datasetId: id, batch: { modelName: "m", instanceType: "ml.c6i.large", instanceCount: 0 } }, /instanceCount/],
    ];
    for (const [body, message] of cases) {
      const response = await evaluations.POST(json("/api/evaluations", body));
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(message);
    }
    expect(await count()).toBe(before);
  });

  it("refuses an endpoint that does not exist or is not InService, naming it, and creates nothing", async () => {
    const datasetId = await createDataset("no-such-endpoint", 2);
    const before = (await (await evaluations.GET(get("/api/evaluations"))).json()) as { evaluations: unknown[] };
    const missing = await evaluations.POST(
      json("/api/evaluations", { datasetId, endpoints: ["cpu-endpoint", "ghost"] }),
    );
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toBe(
      "endpoints: there is no endpoint ghost in this account and region.",
    );
    const creating = await evaluations.POST(json("/api/evaluations", { datasetId, endpoints: ["creating"] }));
    expect(creating.status).toBe(400);
    expect(((await creating.json()) as { error: { message: string } }).error.message).toBe(
      "endpoints: creating is Creating; an evaluation needs an InService endpoint.",
    );
    const after = (await (await evaluations.GET(get("/api/evaluations"))).json()) as { evaluations: unknown[] };
    expect(after.evaluations).toHaveLength(before.evaluations.length);
    expect(fake.requests).toBe(0);
  });

  it("scores a System One and an OpenAI Decisions row's questions through the same runner as decisions", async () => {
    const rows = [
      {
        id: "run-s1",
        state: "Charged twice.",
        questions: {
          refund: { type: "noul", instructions: "Refund?" },
          team: { type: "choice", instructions: "Which team?", criteria: { billing: null, tech: null } },
        },
        expected: { refund: "yes", team: "billing" },
      },
      {
        id: "run-o1",
        input: [{ role: "user", content: "Charged twice." }],
        questions: [
          { type: "choice", instructions: "Which team?", choices: [{ value: "billing" }, { value: "tech" }] },
        ],
        expected: ["tech"],
      },
    ];
    const text = rows.map((row) => JSON.stringify(row)).join("\n");
    const upload = await datasets.POST(json("/api/datasets", { name: "protocol-rows", text }));
    const { id: datasetId } = (await upload.json()) as { id: string };
    const scoredBefore = fake.scored.length;
    const created = await evaluations.POST(json("/api/evaluations", { datasetId, endpoints: ["cpu-endpoint"] }));
    expect(created.status).toBe(201);
    const detail = (await waitForEnd(((await created.json()) as { id: string }).id)) as unknown as {
      status: string;
      results: { metrics: { accuracy: { total: number }; errors: Record<string, number> } }[];
    };
    expect(detail.status).toBe("completed");
    expect(detail.results.map((result) => [result.metrics.accuracy.total, result.metrics.errors])).toEqual([[3, {}]]);
    expect(fake.scored.slice(scoredBefore).sort()).toEqual(["run-o1", "run-s1.refund", "run-s1.team"]);
  });

  it("runs two endpoints through SageMaker Runtime to the end, compares them and exports the items", async () => {
    const datasetId = await createDataset("routes-run", 5);
    const created = await evaluations.POST(
      json("/api/evaluations", { datasetId, endpoints: ["cpu-endpoint", "gpu-endpoint"], concurrency: 2 }),
    );
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const detail = (await waitForEnd(id)) as unknown as {
      status: string;
      progress: { done: number; total: number };
      results: { metrics: { accuracy: { total: number }; errors: Record<string, number> } }[];
      comparison: { rows: { endpointName: string }[]; compared: number };
    };
    expect(detail.status).toBe("completed");
    expect(detail.progress).toMatchObject({ done: 10, total: 10 });
    expect(detail.results.map((result) => [result.metrics.accuracy.total, result.metrics.errors])).toEqual([
      [5, {}],
      [5, {}],
    ]);
    expect(detail.comparison.compared).toBe(5);

    const csv = await exporter.GET(get(`/api/evaluations/${id}/export?format=csv`), params(id));
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    const rows = (await csv.text()).trim().split("\r\n");
    expect(rows).toHaveLength(11);
    expect(rows[0]).toMatch(/^endpoint,item_id,position/);
    const exported = (await (
      await exporter.GET(get(`/api/evaluations/${id}/export?format=json`), params(id))
    ).json()) as {
      items: unknown[];
    };
    expect(exported.items).toHaveLength(10);
    expect((await exporter.GET(get(`/api/evaluations/${id}/export?format=xml`), params(id))).status).toBe(400);

    const again = await cancel.POST(json(`/api/evaluations/${id}/cancel`, {}), params(id));
    expect(again.status).toBe(409);

    const other = await createDataset("other-set", 1);
    const otherRun = (await (
      await evaluations.POST(json("/api/evaluations", { datasetId: other, endpoints: ["cpu-endpoint"] }))
    ).json()) as { id: string };
    await waitForEnd(otherRun.id);
    const mismatched = await evaluation.GET(get(`/api/evaluations/${id}?compareWith=${otherRun.id}`), params(id));
    expect(mismatched.status).toBe(400);
    expect((await dataset.DELETE(json(`/api/datasets/${other}`, {}, "DELETE"), params(other))).status).toBe(409);
  });

  it("exports cells a spreadsheet would run as formulas with a leading ', and JSON as stored", async () => {
    // Issue 12, Medium 6: every text column that comes from the dataset or the endpoint.
    const hostile = {
      id: '=HYPERLINK("https://evil.example","x")',
      state: "Formula cells",
      question: "Which?",
      options: [
        { id: "+1+1", description: "plus" },
        { id: "-2", description: "minus" },
      ],
      answer: "-2",
      category: "@SUM(A1)",
      tier: "\tcmd",
    };
    const upload = await datasets.POST(json("/api/datasets", { name: "formulas", text: JSON.stringify(hostile) }));
    expect(upload.status).toBe(201);
    const datasetId = ((await upload.json()) as { id: string }).id;
    const run = await evaluations.POST(json("/api/evaluations", { datasetId, endpoints: ["cpu-endpoint"] }));
    const { id } = (await run.json()) as { id: string };
    await waitForEnd(id);

    const csv = await (await exporter.GET(get(`/api/evaluations/${id}/export?format=csv`), params(id))).text();
    const [header, row] = parseCsv(csv).map((record) => record.fields);
    const cell = (column: string) => row![header!.indexOf(column)];
    expect(cell("item_id")).toBe(`'${hostile.id}`);
    expect(cell("category")).toBe("'@SUM(A1)");
    expect(cell("tier")).toBe("'\tcmd");
    expect(cell("answer")).toBe("'-2");
    expect(["'+1+1", "'-2"]).toContain(cell("chosen"));
    expect(cell("option_ids")).toBe('["+1+1","-2"]');
    expect(Number(cell("latency_ms"))).toBeGreaterThanOrEqual(0);
    const formulaStarts = row!.filter((field) => /^[=+\-@\t\r]/.test(field));
    expect(formulaStarts).toEqual([]);

    const exported = (await (
      await exporter.GET(get(`/api/evaluations/${id}/export?format=json`), params(id))
    ).json()) as { items: { item_id: string; category: string; tier: string; answer: string }[] };
    expect(exported.items[0]).toMatchObject({ item_id: hostile.id, category: "@SUM(A1)", tier: "\tcmd", answer: "-2" });
  });

  it("quotes cells holding a ; or , and neutralises a formula after either, for spreadsheets that split on ;", async () => {
    // Issue 51, item 9: `x;=cmd` unquoted became a formula cell where `;` separates cells.
    const hostile = {
      id: "semicolon-1",
      state: "Separators",
      question: "Which?",
      options: [
        { id: "no", description: "Wait" },
        { id: "yes", description: "Escalate" },
      ],
      answer: "yes",
      category: "x;=cmd|' /C calc'!A0",
      tier: "y,+1+1",
    };
    const upload = await datasets.POST(json("/api/datasets", { name: "separators", text: JSON.stringify(hostile) }));
    const datasetId = ((await upload.json()) as { id: string }).id;
    const run = await evaluations.POST(json("/api/evaluations", { datasetId, endpoints: ["cpu-endpoint"] }));
    const { id } = (await run.json()) as { id: string };
    await waitForEnd(id);

    const csv = await (await exporter.GET(get(`/api/evaluations/${id}/export?format=csv`), params(id))).text();
    const [header, row] = parseCsv(csv).map((record) => record.fields);
    const cell = (column: string) => row![header!.indexOf(column)];
    expect(cell("category")).toBe("x;'=cmd|' /C calc'!A0");
    expect(cell("tier")).toBe("y,'+1+1");
    const dataLine = csv.split("\r\n")[1]!;
    expect(dataLine).toContain(`"x;'=cmd|' /C calc'!A0"`);
    expect(dataLine).toContain(`"y,'+1+1"`);
    const splitOnSemicolons = dataLine.split(";").slice(1);
    expect(splitOnSemicolons.filter((piece) => /^[=+\-@\t\r]/.test(piece))).toEqual([]);
  });

  it("asks a finished run's failed items again, keeping its answers, and answers a run with none failed as it is", async () => {
    const datasetId = await createDataset("flaky", 2);
    const started = await evaluations.POST(json("/api/evaluations", { datasetId, endpoints: ["cpu-endpoint"] }));
    const { id } = (await started.json()) as { id: string };
    expect(await waitForEnd(id)).toMatchObject({ outcome: "completed_with_failures", failedItems: 1 });
    const answered = fake.scored.filter((itemId) => itemId === "flaky-1").length;

    const retried = await retryFailed.POST(json(`/api/evaluations/${id}/retry-failed`, {}), params(id));
    expect(retried.status).toBe(200);
    expect(await retried.json()).toMatchObject({ status: "running", progress: { done: 1, total: 2 } });
    expect(await waitForEnd(id)).toMatchObject({ outcome: "completed_with_failures", failedItems: 1 });
    expect(fake.scored.filter((itemId) => itemId === "flaky-1").length).toBe(answered);

    const clean = await createDataset("steady", 1);
    const run = (await (
      await evaluations.POST(json("/api/evaluations", { datasetId: clean, endpoints: ["cpu-endpoint"] }))
    ).json()) as { id: string };
    await waitForEnd(run.id);
    const scoredBefore = fake.scored.length;
    const repeated = await retryFailed.POST(json(`/api/evaluations/${run.id}/retry-failed`, {}), params(run.id));
    expect(repeated.status).toBe(200);
    expect(await repeated.json()).toMatchObject({ status: "completed", failedItems: 0 });
    expect(fake.scored.length).toBe(scoredBefore);
  });

  it("answers 404 for an unknown evaluation", async () => {
    expect((await evaluation.GET(get("/api/evaluations/nope"), params("nope"))).status).toBe(404);
    expect((await cancel.POST(json("/api/evaluations/nope/cancel", {}), params("nope"))).status).toBe(404);
    expect((await retryFailed.POST(json("/api/evaluations/nope/retry-failed", {}), params("nope"))).status).toBe(404);
  });
});

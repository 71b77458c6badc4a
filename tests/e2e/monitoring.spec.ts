import fs from "node:fs";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { InvokeEndpointCommand, SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { readLocalAccessKey } from "@decision-console/local-aws";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { LOCAL_ARTIFACT_BUCKET as BUCKET } from "../../infra/local-stack/workspace-fixture.ts";
import { packageAndOpenDeploy } from "./pages/builds-page.ts";
import { EvaluatePage } from "./pages/evaluate-page.ts";
import { type KindOnPage, MonitoringPage } from "./pages/monitoring-page.ts";
import { checkPage } from "./support/a11y.ts";
import { e2eSettings, readModelPin } from "./support/e2e-settings.ts";

/**
 * The feedback loop's first half, in a browser against local mode: an endpoint deployed with data capture at 100%
 * takes 200 decisions through the SageMaker runtime API (an application's client, not the console), and the
 * Monitoring page's kinds table, its flags and each kind's details equal a recount made straight from the capture
 * files; a shadow test started from the page shows the agreement a recount of both variants' files gives, and
 * promoting it makes the candidate the serving model.
 */
test.describe.configure({ mode: "serial" });

const endpoint = "dc-e2e-watched";

function awsClients() {
  const { controlPlaneFile, controlPlaneDataDir } = e2eSettings();
  const config = {
    region: "us-east-1",
    endpoint: fs.readFileSync(controlPlaneFile, "utf8"),
    credentials: readLocalAccessKey(controlPlaneDataDir, "admin"),
  };
  return { runtime: new SageMakerRuntimeClient(config), s3: new S3Client({ ...config, forcePathStyle: true }) };
}

const kinds = [
  {
    question: "Which team should handle this ticket?",
    options: [
      { id: "billing", description: "Billing and payments" },
      { id: "tech", description: "Technical support" },
    ],
  },
  {
    question: "How urgent is this ticket?",
    options: [
      { id: "p1", description: "Now" },
      { id: "p2", description: "Today" },
      { id: "p3", description: "This week" },
    ],
  },
];

/** The team question again with a third option: another decision kind, which the page must tell apart. */
const routing = {
  question: "Which team should handle this ticket?",
  options: [...(kinds[0]?.options ?? []), { id: "sales", description: "Sales and upgrades" }],
};
const ROUTING_DECISIONS = 20;
/** The same ticket each time: the model decides it the same way, so one option takes every decision. */
const routingDecision = (i: number) => ({
  decision: {
    id: `routing-${i}`,
    state: "Customer 3: I would like a quote for 40 more seats.",
    question: routing.question,
    options: routing.options,
  },
});

const onPage = (kind: { question: string; options: { id: string }[] }): KindOnPage => ({
  question: kind.question,
  options: kind.options.map((option) => option.id),
});

const decision = (i: number) => {
  const kind = kinds[i % 2] ?? kinds[0];
  return {
    decision: {
      id: `ticket-${i}`,
      state: `Customer ${i % 7}: ${i % 3 === 0 ? "I was charged twice this month." : "The export page is blank."}`,
      question: kind?.question,
      options: kind?.options,
    },
  };
};

async function invoke(runtime: SageMakerRuntimeClient, body: unknown) {
  await runtime.send(
    new InvokeEndpointCommand({ EndpointName: endpoint, ContentType: "application/json", Body: JSON.stringify(body) }),
  );
}

type Captured = { id: string; input: string; question: string; options: string; chosen: string; top: number };

/** Every captured record of a variant, read with S3 alone (no console code). */
async function capturedRecords(s3: S3Client, variant: string): Promise<Captured[]> {
  const records: Captured[] = [];
  let token: string | undefined;
  do {
    const listed = await s3.send(
      new ListObjectsV2Command({
        Bucket: BUCKET,
        Prefix: `data-capture/${endpoint}/${variant}/`,
        ContinuationToken: token,
      }),
    );
    for (const object of listed.Contents ?? []) {
      const body = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: object.Key }));
      for (const line of ((await body.Body?.transformToString()) ?? "").split("\n")) {
        if (!line) continue;
        const record = JSON.parse(line);
        const input = record.captureData.endpointInput.data as string;
        const { result } = JSON.parse(record.captureData.endpointOutput.data);
        const top = Math.max(...(result.probabilities as number[]));
        const asked = JSON.parse(input).decision;
        records.push({
          id: asked.id,
          input,
          question: asked.question,
          options: (asked.options as { id: string }[]).map((option) => option.id).join(", "),
          chosen: result.option_ids[result.probabilities.indexOf(top)],
          top,
        });
      }
    }
    token = listed.NextContinuationToken;
  } while (token);
  return records;
}

async function endpointDetail(request: APIRequestContext) {
  const response = await request.get(`/api/endpoints/${endpoint}`);
  return (await response.json()) as { status: string; config: { name: string }; settings: { temperature: number } };
}

async function openMonitoring(page: Page) {
  await page.goto(`/endpoints/${endpoint}/monitoring`);
  await page.getByRole("button", { name: "1 h" }).click();
}

test("an endpoint with data capture at 100% serves the packaged model", async ({ page }) => {
  await packageAndOpenDeploy(page, readModelPin());
  const query = new URL(page.url()).searchParams;
  const image = (await (await page.request.get("/api/images?tag=cpu")).json()) as { imageUri: string };
  const deployed = await page.request.post("/api/endpoints", {
    data: {
      name: endpoint,
      imageUri: image.imageUri,
      modelDataUrl: query.get("model"),
      ...(query.get("sha256") ? { modelSha256: query.get("sha256") } : {}),
      compute: { kind: "cpu", instanceType: "ml.c6i.large", threads: 1 },
      temperature: 1,
      dataCapture: { samplingPercentage: 100 },
    },
  });
  expect(deployed.status(), await deployed.text()).toBe(202);
  await expect.poll(async () => (await endpointDetail(page.request)).status, { timeout: 180_000 }).toBe("InService");
});

test("the Monitoring page leads with a row per decision kind, as the capture files count them", async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const { runtime, s3 } = awsClients();
  for (let i = 0; i < 200; i++) await invoke(runtime, decision(i));
  for (let i = 0; i < ROUTING_DECISIONS; i++) await invoke(runtime, routingDecision(i));
  const total = 200 + ROUTING_DECISIONS;
  await expect.poll(async () => (await capturedRecords(s3, "AllTraffic")).length, { timeout: 60_000 }).toBe(total);
  const records = await capturedRecords(s3, "AllTraffic");
  const ofKind = (kind: KindOnPage) =>
    records.filter((record) => record.question === kind.question && record.options === kind.options.join(", "));

  // A first look reads the data's span: every decision is minutes old, so the 1-hour window.
  const monitoring = new MonitoringPage(page);
  await monitoring.goto(endpoint);
  await expect(page.getByTestId("monitoring-decisions")).toHaveText(String(total), { timeout: 60_000 });
  await expect(monitoring.windowButton("Data span")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("monitoring-window")).toContainText("Data span: the 1 h window");
  await expect(page.getByTestId("monitoring-sources")).toHaveText(`0 gateway · ${total} direct`);

  // Two kinds ask the team question; their rows are told apart by their option sets.
  const team = onPage(kinds[0] ?? routing);
  const routed = onPage(routing);
  for (const kind of [...kinds.map(onPage), routed]) {
    const captured = ofKind(kind);
    const counts = kind.options.map((option) => captured.filter((record) => record.chosen === option).length);
    const top = Math.max(...counts);
    const topOption = kind.options[counts.indexOf(top)];
    const cells = monitoring.kindRow(kind).getByRole("cell");
    await expect(cells.nth(1).getByTestId("kind-decisions")).toHaveText(String(captured.length));
    await expect(cells.nth(1).getByTestId("kind-sources")).toHaveText(`0 gateway · ${captured.length} direct`);
    await expect(cells.nth(2)).toHaveText(`${topOption} ${((100 * top) / captured.length).toFixed(1)}%`);
    const below = captured.filter((record) => record.top < 0.5).length;
    await expect(cells.nth(3)).toHaveText(`${((100 * below) / captured.length).toFixed(1)}%`);
  }
  await expect(monitoring.kindRow(team)).toHaveCount(1);
  await expect(monitoring.kindRow(routed)).toHaveCount(1);

  // The same ticket every time: one option takes every routing decision, and the row says so.
  const routedTop = Math.max(
    ...routed.options.map((option) => ofKind(routed).filter((r) => r.chosen === option).length),
  );
  expect(routedTop).toBe(ROUTING_DECISIONS);
  await expect(monitoring.flags(routed).filter({ hasText: "one option takes 100%" })).toHaveCount(1);

  for (const kind of [...kinds.map(onPage), routed]) {
    const details = await monitoring.openDetails(kind);
    const captured = ofKind(kind);
    for (const option of kind.options) {
      const chosen = captured.filter((record) => record.chosen === option).length;
      const row = details.getByTestId("chosen-options").locator(`tr[data-option="${option}"]`);
      await expect(row.getByRole("cell")).toHaveText([
        option,
        String(chosen),
        `${((100 * chosen) / captured.length).toFixed(1)}%`,
      ]);
    }
  }
  await checkPage(page, testInfo, "monitoring");

  // The threshold kept for the endpoint is what the page reads against on the next visit.
  await page.getByLabel("Decision threshold").fill("0.6");
  await page.getByRole("button", { name: "Keep as this endpoint's threshold" }).click();
  await expect(page.getByTestId("stored-threshold")).toContainText("This endpoint's threshold is 0.60");
  await openMonitoring(page);
  await expect(page.getByLabel("Decision threshold")).toHaveValue("0.60");
  const below = records.filter((record) => record.top < 0.6).length;
  await expect(page.getByTestId("monitoring-below")).toHaveText(
    `${((100 * below) / records.length).toFixed(1)}% (${below})`,
  );
});

test("20 decisions labelled from the keyboard give the live accuracy a recount gives, export as a dataset and evaluate", async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const { s3 } = awsClients();
  const records = await capturedRecords(s3, "AllTraffic");
  const team = kinds[0];
  if (!team) throw new Error("no decision kind");
  // The right answer a person reads from the state: a double charge goes to billing, anything else to tech support.
  const rightAnswer = (state: string) => (state.includes("charged twice") ? "billing" : "tech");

  await page.goto(`/endpoints/${endpoint}/monitoring`);
  await page.getByRole("link", { name: "Review queue" }).click();
  await expect(page.getByRole("heading", { name: `Review queue: ${endpoint}`, level: 1 })).toBeVisible();
  await page
    .getByLabel("Decision kind")
    .selectOption({ label: `${team.question} (${team.options.map((o) => o.id).join(", ")})` });
  const decided = page.getByText(/\(decision ticket-\d+\)/);
  const labelled: { id: string; label: string }[] = [];
  for (let i = 0; i < 20; i++) {
    const text = (await decided.textContent()) ?? "";
    const id = /\(decision (ticket-\d+)\)/.exec(text)?.[1];
    if (!id || labelled.some((entry) => entry.id === id)) throw new Error(`decision ${id} came back`);
    const label = rightAnswer((await page.locator("pre").textContent()) ?? "");
    await page.keyboard.press(String(team.options.findIndex((option) => option.id === label) + 1));
    labelled.push({ id, label });
    await expect(decided).not.toHaveText(text);
  }
  const agreeing = labelled.filter(({ id, label }) => records.find((r) => r.id === id)?.chosen === label).length;
  // The routing kind asks the same question: the labels table tells the two apart by their option sets.
  const teamKind = `${team.question} (${team.options.map((o) => o.id).join(", ")})`;
  const labels = page.getByRole("row").filter({ hasText: teamKind });
  await expect(labels.getByRole("cell")).toHaveText([teamKind, "20", "0"]);

  const monitoring = new MonitoringPage(page);
  await monitoring.goto(endpoint);
  const section = await monitoring.openDetails(onPage(team));
  await expect(section.getByTestId("live-accuracy")).toContainText(
    `Live accuracy on 20 labelled decisions: ${((100 * agreeing) / 20).toFixed(1)}%`,
  );

  await page.goto(`/endpoints/${endpoint}/review`);
  await page
    .getByLabel("Decision kind")
    .selectOption({ label: `${team.question} (${team.options.map((o) => o.id).join(", ")})` });
  await page.getByLabel("Dataset name").fill("dc-e2e-watched reviewed");
  await page.getByRole("button", { name: "Export to dataset" }).click();
  await expect(page.getByText("Stored 20 labelled decisions as “dc-e2e-watched reviewed”.")).toBeVisible();
  await checkPage(page, testInfo, "review-queue");
  await page.getByRole("link", { name: "Evaluate on this dataset" }).click();

  const evaluate = new EvaluatePage(page);
  await expect(page.getByRole("heading", { name: "Evaluate", level: 1 })).toBeVisible();
  await evaluate.start(endpoint);
  await evaluate.waitForEnd(20);
  // The same model and settings decide the same way offline: the run's correct count is the labels' agreement.
  await expect(page.getByRole("definition").filter({ hasText: /^\d+\/20$/ })).toHaveText(`${agreeing}/20`);
});

test("a shadow test started from the page shows the agreement both variants' files give, and promotes", async ({
  page,
}) => {
  test.setTimeout(420_000);
  const { runtime, s3 } = awsClients();
  await openMonitoring(page);
  await page.getByLabel("Candidate temperature").fill("3");
  await page.getByRole("button", { name: "Start shadow test" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Shadow gets" })).toContainText(
    "Shadow gets 100% of requests",
  );
  const shadowConfig = (await endpointDetail(page.request)).config.name;
  await expect
    .poll(async () => endpointDetail(page.request), { timeout: 180_000 })
    .toMatchObject({ status: "InService" });

  const before = (await capturedRecords(s3, "AllTraffic")).length;
  for (let i = 0; i < 40; i++) await invoke(runtime, decision(i));
  await expect.poll(async () => (await capturedRecords(s3, "Shadow")).length, { timeout: 60_000 }).toBe(40);
  const production = (await capturedRecords(s3, "AllTraffic")).slice(before);
  const shadow = await capturedRecords(s3, "Shadow");
  let agreeing = 0;
  for (const record of production) {
    const index = shadow.findIndex((candidate) => candidate.input === record.input);
    const [copy] = shadow.splice(index, 1);
    if (copy?.chosen === record.chosen) agreeing++;
  }

  await openMonitoring(page);
  await expect(page.getByTestId("shadow-pairs")).toHaveText("40", { timeout: 60_000 });
  await expect(page.getByTestId("shadow-agreement")).toHaveText(`${((100 * agreeing) / 40).toFixed(1)}%`);

  await page.getByLabel("Promote by").selectOption("all-at-once");
  await page.getByRole("button", { name: "Promote the shadow" }).click();
  await expect(page.getByRole("status").filter({ hasText: "update to the candidate" })).toContainText(
    "update to the candidate starts once the endpoint is InService",
  );
  await expect
    .poll(
      async () => {
        const detail = await endpointDetail(page.request);
        return detail.status === "InService" && detail.config.name !== shadowConfig
          ? detail.settings.temperature
          : null;
      },
      { timeout: 240_000, intervals: [2_000] },
    )
    .toBe(3);
});

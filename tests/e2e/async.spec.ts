import { expect, type Page, type TestInfo, test } from "@playwright/test";
import type { EndpointDetail } from "../../contract/endpoints/endpoint.ts";
import { packageAndOpenDeploy } from "./pages/builds-page.ts";
import { cpuAdapterChoices, DeployPage } from "./pages/deploy-page.ts";
import { EndpointDetailPage } from "./pages/endpoint-detail-page.ts";
import { EndpointsPage } from "./pages/endpoints-page.ts";
import { EvaluatePage } from "./pages/evaluate-page.ts";
import { PlaygroundPage } from "./pages/playground-page.ts";
import { checkPage } from "./support/a11y.ts";
import { deleteEndpoint } from "./support/deploy-packaged-model.ts";
import { readModelPin } from "./support/e2e-settings.ts";
import { advanceMetricClock, resetMetricClock } from "./support/metric-clock.ts";

/**
 * Background decisions on an asynchronous endpoint in local mode (issue 15): deploy it from the form, send 20
 * decisions from the playground and 20 more as an evaluation, scale it to zero when the queue stays empty, and wake
 * it with one more request. Requests, adapter starts and the queue run in real time; only the metric clock of the
 * local CloudWatch and Application Auto Scaling is moved ahead, so the alarms' minutes pass in seconds.
 */
test.describe.configure({ mode: "serial" });

const endpoint = "dc-e2e-async-s2z";
const datasetName = "e2e-async-tickets";
const playgroundDecisions = 20;
const datasetSize = 20;

function ticket(i: number) {
  return {
    id: `ticket-${i}`,
    state: `Ticket ${i}: the customer was charged ${i + 2} times for order ${1000 + i} and asks for a refund.`,
    question: "Which team should handle this ticket?",
    options: [
      { id: "billing", description: "The billing team" },
      { id: "tech", description: "The technical support team" },
    ],
  };
}

function dataset(count: number): string {
  return Array.from({ length: count }, (_, i) =>
    JSON.stringify({ ...ticket(100 + i), answer: i % 4 === 0 ? "tech" : "billing" }),
  ).join("\n");
}

/**
 * Sends one decision from the playground and watches it queue, then answer with probability bars. The tiny model
 * often answers before the page's first look at the output location, so that first look is held until the queued
 * notice has been seen; the page's later looks go through as they come.
 */
async function decide(playground: PlaygroundPage, i: number): Promise<void> {
  const page = playground.page;
  await playground.setRequestJson({ decision: ticket(i) });
  let release = () => {};
  const seen = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    "**/invoke-async/*",
    async (route) => {
      await seen;
      await route.continue();
    },
    { times: 1 },
  );
  const queued = page.waitForResponse(
    (response) => response.url().endsWith("/invoke-async") && response.request().method() === "POST",
  );
  await playground.run();
  expect((await queued).status()).toBe(202);
  await expect(playground.queuedNotice()).toBeVisible();
  release();
  const meters = await playground.meters(`ticket-${i}`);
  expect(meters.map((meter) => meter.option)).toEqual(["billing", "tech"]);
  expect(meters.reduce((sum, meter) => sum + meter.value, 0)).toBeCloseTo(1, 6);
  await expect(playground.queuedNotice()).toHaveCount(0);
}

/**
 * Moves the metric clock on `stepSeconds` at a time, at most `limitSeconds`, until the endpoint (read through the
 * console's API) shows what `reached` waits for; answers the metric seconds it took.
 */
async function advanceUntil(
  page: Page,
  stepSeconds: number,
  limitSeconds: number,
  reached: (detail: EndpointDetail) => boolean,
): Promise<number> {
  for (let passed = stepSeconds; passed <= limitSeconds; passed += stepSeconds) {
    await advanceMetricClock(stepSeconds);
    const response = await page.request.get(`/api/endpoints/${endpoint}`);
    expect(response.status()).toBe(200);
    if (reached((await response.json()) as EndpointDetail)) return passed;
  }
  throw new Error(`${endpoint} did not scale within ${limitSeconds} s of metric time`);
}

/** The autoscaling card's notice titled "Scaled to zero" (its explanation mentions scaling to zero too). */
const scaledToZeroNotice = (page: Page) =>
  page.getByRole("status").filter({ has: page.getByText("Scaled to zero", { exact: true }) });

/** A figure this run measured: in the report's annotations and the runner's output. */
function measured(testInfo: TestInfo, description: string): void {
  testInfo.annotations.push({ type: "measured", description });
  console.log(`measured: ${description}`);
}

test.afterAll(async () => {
  // Later specs share this web server: their alarms read invocation metrics on the real clock.
  await resetMetricClock();
});

test("an asynchronous endpoint is deployed from the form on a CPU instance", async ({ page }, testInfo) => {
  await packageAndOpenDeploy(page, readModelPin());
  const deploy = new DeployPage(page);
  await deploy.fill(cpuAdapterChoices(endpoint));
  await deploy.chooseAsynchronous();
  await deploy.review();
  await expect(page.getByText(/may scale to 0 instances/)).toBeVisible();
  await checkPage(page, testInfo, "async-deploy-review");
  await deploy.deploy();
  const endpoints = new EndpointsPage(page);
  await endpoints.goto();
  await endpoints.waitForStatus(endpoint, "InService");
});

test(`${playgroundDecisions} playground decisions go through the queue and answer with probability bars`, async ({
  page,
}, testInfo) => {
  test.setTimeout(600_000);
  const playground = new PlaygroundPage(page);
  await playground.goto(endpoint);
  const started = performance.now();
  for (let i = 0; i < playgroundDecisions; i++) await decide(playground, i);
  const seconds = (performance.now() - started) / 1000;
  measured(
    testInfo,
    `${playgroundDecisions} playground decisions in ${seconds.toFixed(1)} s (${(seconds / playgroundDecisions).toFixed(2)} s each)`,
  );
  await checkPage(page, testInfo, "async-playground");
});

test(`an evaluation of ${datasetSize} items runs on the asynchronous endpoint`, async ({ page }, testInfo) => {
  const evaluate = new EvaluatePage(page);
  await evaluate.goto();
  await evaluate.upload("tickets.jsonl", dataset(datasetSize), datasetName);
  await expect(page.getByText(`Stored ${datasetName}: ${datasetSize} decisions.`)).toBeVisible();
  await page
    .getByLabel("Dataset", { exact: true })
    .selectOption({ label: `${datasetName} (${datasetSize} decisions, upload)` });
  await evaluate.start(endpoint, 4);
  await evaluate.waitForEnd(datasetSize, 300_000);
  await expect(page.getByRole("definition").filter({ hasText: new RegExp(`^\\d+/${datasetSize}$`) })).toHaveCount(1);
  await checkPage(page, testInfo, "async-evaluation");
});

test("scale to zero: with the queue empty the endpoint reaches 0 instances", async ({ page }, testInfo) => {
  const detail = new EndpointDetailPage(page);
  await detail.goto(endpoint);
  await detail.enableScaleToZero(1, 5);
  await expect(detail.autoscalingCard()).toContainText("on, target 5 queued requests per instance");
  await expect(detail.instancesNow()).toHaveText("1");
  // The backlog published every 10 s while the decisions and the evaluation ran, charted for this async endpoint.
  await expect(page.getByRole("img", { name: /^Backlog \(requests\): latest .+ over \d+ points\.$/ })).toBeVisible();
  // Issue 32 item 9: an asynchronous endpoint's invocations are its InvocationsProcesssed, not "No data yet".
  await expect(page.getByRole("img", { name: /^Invocations processed: latest .+ over \d+ points\.$/ })).toBeVisible();
  await checkPage(page, testInfo, "async-autoscaling");

  // The target-tracking scale-in alarm needs 15 one-minute datapoints below its threshold: a minute at a time, at
  // most 25 minutes of metric time, until the scaling activity starts; the page then shows no instance on its own.
  const seconds = await advanceUntil(page, 60, 25 * 60, (d) => d.status === "Updating" || d.instanceCount === 0);
  await expect(detail.instancesNow()).toHaveText("0", { timeout: 60_000 });
  await expect(scaledToZeroNotice(page)).toBeVisible();
  measured(testInfo, `scaled in after ${seconds / 60} minutes of metric time`);
  await checkPage(page, testInfo, "async-scaled-to-zero");
});

test("one more decision waits in the queue, wakes the endpoint to 1 instance and completes", async ({
  page,
  context,
}, testInfo) => {
  const playground = new PlaygroundPage(page);
  await playground.goto(endpoint);
  await playground.setRequestJson({ decision: ticket(playgroundDecisions) });
  await playground.run();
  await expect(playground.queuedNotice()).toBeVisible();
  // No instance runs: the request stays queued while real time passes, and the page says a cold start is under way.
  await page.waitForTimeout(3_000);
  await expect(playground.coldStartNotice()).toBeVisible();
  await expect(playground.coldStartNotice()).toContainText(/wake-up alarm goes off after 2 min/);

  const detailPage = await context.newPage();
  const detail = new EndpointDetailPage(detailPage);
  await detail.goto(endpoint);
  await expect(detail.instancesNow()).toHaveText("0");
  // HasBacklogWithoutCapacity alarms after two one-minute periods: 10 s of metric time a step, at most 5 minutes.
  const seconds = await advanceUntil(page, 10, 5 * 60, (d) => d.status === "Updating" || (d.instanceCount ?? 0) > 0);
  await expect(detail.instancesNow()).toHaveText("1", { timeout: 120_000 });
  await expect(scaledToZeroNotice(detailPage)).toHaveCount(0);
  measured(testInfo, `woke after ${seconds} s of metric time`);

  await page.bringToFront();
  const meters = await playground.meters(`ticket-${playgroundDecisions}`);
  expect(meters.map((meter) => meter.option)).toEqual(["billing", "tech"]);
  await expect(playground.queuedNotice()).toHaveCount(0);
  await detailPage.close();
});

test("the asynchronous endpoint is deleted", async ({ page }) => {
  await deleteEndpoint(page, endpoint);
});

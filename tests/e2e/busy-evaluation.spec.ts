import { type APIRequestContext, expect, test } from "@playwright/test";
import { LONGEST_BUSY_WAIT_MS } from "../../contract/invoke/invocation-budget.ts";
import { packageAndOpenDeploy } from "./pages/builds-page.ts";
import { cpuAdapterChoices, DeployPage } from "./pages/deploy-page.ts";
import { EndpointsPage } from "./pages/endpoints-page.ts";
import { EvaluatePage } from "./pages/evaluate-page.ts";
import { deleteEndpoint } from "./support/deploy-packaged-model.ts";
import { readModelPin } from "./support/e2e-settings.ts";
import { waitUntilAdmitted } from "./support/endpoint-admission.ts";

/**
 * Issue 56, item 1, against local mode: an endpoint that admits one request at a time (SEMIF_MAX_IN_FLIGHT 1,
 * "Requests scored at once" on the deploy form) is loaded by evaluations of sixteen concurrent requests each and a
 * shadow test (copies of every request). An evaluation run beside them gets "model is busy" answers; the ones still
 * busy after the console's retries are reported as failures apart from wrong answers, the run ends "completed with
 * failures", and "Retry the failed items", once the load is gone, asks those items again and gets their answers.
 */
test.describe.configure({ mode: "serial" });

const endpoint = "dc-e2e-busy";
const loadItems = 600;
const targetItems = 24;

/**
 * Each load decision has a state of about 900 tokens that starts differently (so no cached prefix shortens it): the
 * one-thread adapter holds its only admission slot for hundreds of ms per decision (seconds on a busy machine, still
 * far from the runtime's 60 s limit), and the load's workers take it again as soon as it is free, so a request from
 * beside them is nearly always answered busy, seven times in a row for most items. Every worker answered busy backs
 * off too (up to 2 s), so the slot stays free for about the backoff over the number of workers after each answer:
 * one load of sixteen left it free often enough on a quiet machine that all eight items got answers; three loads
 * (48 workers) leave it free a few per cent of the time, and an item is answered busy seven times in a row at about
 * 0.98^7, most of the time. Yet a quiet machine once answered all eight of eight items (the workers' backoffs line
 * up and leave the slot free together), so the run has 24 items: it needs only one of them answered busy every time.
 */
const loads = 3;
function loadDecisions(): string {
  const filler = "The customer wrote again about the overdue invoice and the disputed charge. ".repeat(20);
  return Array.from({ length: loadItems }, (_, i) =>
    JSON.stringify({
      id: `load-${i}`,
      state: `Account ${i * 7919}: ${filler}`,
      question: "Should collections escalate the invoice?",
      options: [
        { id: "wait", description: "Wait for the next reminder" },
        { id: "escalate", description: "Escalate to collections" },
      ],
      answer: i % 2 ? "wait" : "escalate",
    }),
  ).join("\n");
}

const ticket = (i: number) => ({
  id: `ticket-${i}`,
  state: `Ticket ${i}: the export page is blank for customer ${i % 3}.`,
  question: "Which team should handle this ticket?",
  options: [
    { id: "billing", description: "Billing and payments" },
    { id: "tech", description: "Technical support" },
  ],
});

function targetDecisions(): string {
  return Array.from({ length: targetItems }, (_, i) =>
    JSON.stringify({ ...ticket(i), answer: i % 3 === 0 ? "billing" : "tech" }),
  ).join("\n");
}

async function endpointStatus(request: APIRequestContext): Promise<string> {
  const response = await request.get(`/api/endpoints/${endpoint}`);
  return ((await response.json()) as { status: string }).status;
}

test("an endpoint admitting one request at a time runs a shadow test", async ({ page }) => {
  test.setTimeout(420_000);
  await packageAndOpenDeploy(page, readModelPin());
  const deploy = new DeployPage(page);
  await deploy.fill(cpuAdapterChoices(endpoint));
  await page.getByLabel("Requests scored at once").fill("1");
  await deploy.reviewAndDeploy();
  const endpoints = new EndpointsPage(page);
  await endpoints.goto();
  await endpoints.waitForStatus(endpoint, "InService");

  const started = await page.request.post(`/api/endpoints/${endpoint}/shadow`, {
    data: { change: { temperature: 2 }, samplingPercentage: 100 },
  });
  expect(started.status()).toBe(200);
  await expect.poll(() => endpointStatus(page.request), { timeout: 240_000, intervals: [2_000] }).toBe("InService");

  const evaluate = new EvaluatePage(page);
  await evaluate.goto();
  await evaluate.upload("busy-load.jsonl", loadDecisions(), "busy-load");
  await expect(page.getByText(`Stored busy-load: ${loadItems} decisions.`)).toBeVisible();
  await evaluate.upload("busy-target.jsonl", targetDecisions(), "busy-target");
  await expect(page.getByText(`Stored busy-target: ${targetItems} decisions.`)).toBeVisible();
});

test("an evaluation beside the load reports its busy failures apart, and retrying them gets answers", async ({
  page,
  context,
}) => {
  test.setTimeout(600_000);
  const loadPages: EvaluatePage[] = [];
  for (let i = 0; i < loads; i++) {
    const load = new EvaluatePage(await context.newPage());
    await load.goto();
    await load.chooseDataset(`busy-load (${loadItems} decisions, upload)`);
    await load.start(endpoint, 16);
    loadPages.push(load);
  }
  const [load] = loadPages as [EvaluatePage];
  await expect(load.page.getByTestId("progress-text")).toHaveText(/^[1-9]\d* of /, { timeout: 60_000 });

  const evaluate = new EvaluatePage(page);
  await evaluate.goto();
  await evaluate.chooseDataset(`busy-target (${targetItems} decisions, upload)`);
  await evaluate.start(endpoint, 1);
  await evaluate.waitForOutcome(targetItems, "completed with failures", 360_000);
  await expect(load.page.getByTestId("progress-text")).toContainText("· about");

  const failed = Number(await evaluate.metric(endpoint, "Failed (no answer)").textContent());
  expect(failed).toBeGreaterThan(0);
  const [correct, answered] = ((await evaluate.metric(endpoint, "Correct of answered").textContent()) ?? "")
    .split("/")
    .map(Number);
  expect(answered).toBe(targetItems - failed);
  // Accuracy is over the answered items only: the failed ones are neither right nor wrong.
  await expect(evaluate.metric(endpoint, "Accuracy")).toHaveText(
    answered ? `${((100 * (correct ?? 0)) / answered).toFixed(1)}%` : "–",
  );
  await expect(page.getByRole("status").filter({ hasText: `${failed} item(s) got no answer` })).toContainText("busy");

  for (const each of loadPages) await each.cancel();
  // Each of the load's workers stops after the item it is on: once the busy retries' longest backoff has passed, at
  // most one of them still holds the slot (a decision the adapter admitted), and the probe waits for it.
  await page.waitForTimeout(LONGEST_BUSY_WAIT_MS);
  await waitUntilAdmitted(endpoint, { decision: { ...ticket(targetItems), id: "probe" } });
  await evaluate.retryFailed();
  await evaluate.waitForOutcome(targetItems, "completed", 120_000);
  await expect(evaluate.metric(endpoint, "Failed (no answer)")).toHaveText("0");
  await expect(evaluate.metric(endpoint, "Correct of answered")).toHaveText(new RegExp(`^\\d+/${targetItems}$`));
  await expect(page.getByRole("button", { name: "Retry the failed items" })).toHaveCount(0);
});

// After the tests, passed or not: a busy endpoint left behind would fail the specs after this one (they expect none).
test.afterAll(async ({ browser }) => {
  const { storageState, baseURL } = test.info().project.use;
  const context = await browser.newContext({ storageState, baseURL });
  try {
    const page = await context.newPage();
    if ((await page.request.get(`/api/endpoints/${endpoint}`)).status() === 200) await deleteEndpoint(page, endpoint);
  } finally {
    await context.close();
  }
});

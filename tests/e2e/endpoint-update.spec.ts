import { type APIRequestContext, expect, test } from "@playwright/test";
import { packageAndOpenDeploy } from "./pages/builds-page.ts";
import { EndpointDetailPage } from "./pages/endpoint-detail-page.ts";
import { PlaygroundPage } from "./pages/playground-page.ts";
import { checkPage } from "./support/a11y.ts";
import { readModelPin } from "./support/e2e-settings.ts";

/**
 * An operator changes a serving endpoint's temperature in place: a canary takes half the traffic while it bakes
 * and the playground keeps answering with both temperatures, then only the new one; a second update with an alarm
 * that goes off rolls back, and the page says which alarm.
 */
test.describe.configure({ mode: "serial" });

const endpoint = "dc-e2e-update";
const decision = {
  id: "route-ticket",
  state: "Customer: I was charged twice for my subscription this month.",
  question: "Which team should handle this ticket?",
  options: [
    { id: "billing", description: "Billing and payments" },
    { id: "tech", description: "Technical support" },
  ],
};

/** One decision through the console's invoke route (the playground's), as its probabilities to 3 places. */
async function answer(request: APIRequestContext): Promise<string> {
  const response = await request.post(`/api/endpoints/${endpoint}/invoke`, { data: { body: { decision } } });
  expect(response.status(), await response.text()).toBe(200);
  const { result } = (await response.json()) as { result: { probabilities: number[] } };
  return result.probabilities.map((p) => p.toFixed(3)).join();
}

async function status(request: APIRequestContext): Promise<string> {
  const response = await request.get(`/api/endpoints/${endpoint}`);
  return ((await response.json()) as { status: string }).status;
}

test("an endpoint of two instances serves the packaged model", async ({ page }) => {
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
      instanceCount: 2,
      temperature: 1,
    },
  });
  expect(deployed.status(), await deployed.text()).toBe(202);
  await expect.poll(() => status(page.request), { timeout: 180_000 }).toBe("InService");
});

test("a canary update of the temperature: both answer while it bakes, then only the new one", async ({
  page,
  context,
}, testInfo) => {
  const before = await answer(page.request);
  const detail = new EndpointDetailPage(page);
  await detail.goto(endpoint);
  await page.getByRole("button", { name: "Update endpoint" }).click();
  const form = page.getByRole("form", { name: "Update endpoint" });
  await form.getByLabel("Temperature").fill("3");
  await expect(form.getByLabel("Strategy")).toHaveValue("canary");
  await form.getByLabel("Canary size").fill("1");
  await form.getByLabel("Baking time (s)").fill("25");
  await form.getByLabel("Alarms").selectOption("none");
  const review = form.getByRole("region", { name: "Review" });
  const temperatureRow = review.getByRole("row").filter({ hasText: "Temperature" });
  await expect(temperatureRow.getByRole("cell")).toHaveText(["Temperature (SEMIF_TEMPERATURE)", "1", "3"]);
  await expect(review).toContainText("Step 1: 50% of traffic on the new fleet (1 of 2 instances), then 25 s baking");
  await checkPage(page, testInfo, "endpoint-update-form");
  await form.getByRole("button", { name: "Update endpoint" }).click();

  const progress = page.getByRole("region", { name: "Update in progress" });
  await expect(progress).toContainText("Old fleet 50% · new fleet 50% of traffic", { timeout: 120_000 });
  await checkPage(page, testInfo, "endpoint-update-progress");
  const playground = new PlaygroundPage(await context.newPage());
  await playground.goto(endpoint);
  await playground.setRequestJson({ decision });
  await playground.run();
  expect(await playground.meters("route-ticket")).toHaveLength(2);
  const seen = new Set<string>();
  for (let i = 0; i < 24; i++) seen.add(await answer(page.request));
  expect(seen.has(before)).toBe(true);
  expect(seen.size).toBe(2);

  await expect.poll(() => status(page.request), { timeout: 120_000 }).toBe("InService");
  // The form closed when the update started and does not come back when it ends; the roll back is offered.
  await expect(page.getByRole("region", { name: "Previous configuration" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("form", { name: "Update endpoint" })).toHaveCount(0);
  const after = await answer(page.request);
  expect(after).not.toBe(before);
  for (let i = 0; i < 8; i++) expect(await answer(page.request)).toBe(after);
});

test("an update whose rollback alarm goes off is rolled back, and the page says which alarm", async ({ page }) => {
  const serving = await answer(page.request);
  const detail = new EndpointDetailPage(page);
  await detail.goto(endpoint);
  await page.getByRole("button", { name: "Update endpoint" }).click();
  const form = page.getByRole("form", { name: "Update endpoint" });
  await form.getByLabel("Temperature").fill("6");
  await form.getByLabel("Baking time (s)").fill("600");
  // The standard alarms with a latency threshold every answer exceeds: the alarm goes off on real traffic.
  await form.getByLabel("ModelLatency average above (ms)").fill("0.001");
  await form.getByRole("button", { name: "Update endpoint" }).click();
  await expect(page.getByRole("region", { name: "Update in progress" })).toBeVisible({ timeout: 60_000 });

  const rolledBack = page.getByRole("alert").filter({ hasText: "Last update rolled back" });
  await expect
    .poll(
      async () => {
        await answer(page.request);
        return rolledBack.count();
      },
      { timeout: 200_000, intervals: [2000] },
    )
    .toBe(1);
  // Worded by the console from the alarm's history (issue 56, item 3), not from local mode's FailureReason.
  await expect(rolledBack).toContainText(
    new RegExp(
      `Rolled back: alarm ${endpoint}-rollback-latency-average went to ALARM at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d ` +
        "\\(ModelLatency average [\\d.]+ ms > threshold 0\\.001 ms\\)",
    ),
  );
  await expect(page.getByRole("region", { name: "Rollback alarms" })).toContainText("ALARM");
  for (let i = 0; i < 6; i++) expect(await answer(page.request)).toBe(serving);
});

test("one click rolls back to the configuration before the update", async ({ page }) => {
  const detail = new EndpointDetailPage(page);
  await detail.goto(endpoint);
  const previous = page.getByRole("region", { name: "Previous configuration" });
  await expect(previous).toContainText(`served ${endpoint}.`);
  await previous.getByRole("button", { name: `Roll back to ${endpoint}` }).click();
  await expect.poll(() => status(page.request), { timeout: 120_000 }).toBe("Updating");
  await expect.poll(() => status(page.request), { timeout: 120_000 }).toBe("InService");
  const detailJson = (await (await page.request.get(`/api/endpoints/${endpoint}`)).json()) as {
    config: { name: string };
    settings: { temperature: number | null };
  };
  expect(detailJson.config.name).toBe(endpoint);
  expect(detailJson.settings.temperature).toBe(1);
});

test("the updated endpoint is deleted", async ({ page }) => {
  const detail = new EndpointDetailPage(page);
  await detail.goto(endpoint);
  await detail.delete(endpoint);
});

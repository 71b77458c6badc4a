import fs from "node:fs";
import { SageMakerClient } from "@aws-sdk/client-sagemaker";
import { executionRoleArnOf, LOCAL_ACCOUNT_ID, readLocalAccessKey } from "@decision-console/local-aws";
import { createEndpoint } from "@decision-console/local-aws/testing";
import { expect, type Page, type Response, test } from "@playwright/test";
import { workspaceStackFixture } from "../../infra/local-stack/workspace-fixture.ts";
import { BuildDetailPage, BuildsPage } from "./pages/builds-page.ts";
import { DeployPage } from "./pages/deploy-page.ts";
import { EndpointDetailPage } from "./pages/endpoint-detail-page.ts";
import { EndpointsPage } from "./pages/endpoints-page.ts";
import { PlaygroundPage } from "./pages/playground-page.ts";
import { checkPage } from "./support/a11y.ts";
import { e2eSettings, readModelPin, readTrainedModelPin } from "./support/e2e-settings.ts";

/**
 * One operator's day, in order: package a model from the (stand-in) Hub, deploy it, use it in the playground, see
 * an instance-pool fallback and a failed deployment, and delete. Each step builds on the one before.
 */
test.describe.configure({ mode: "serial" });

// The console's names carry the prefix its IAM policy allows (the local stack's CONSOLE_RESOURCE_PREFIX, dc-).
const cpuEndpoint = "dc-e2e-cpu";
const asyncEndpoint = "dc-e2e-async";
const poolEndpoint = "dc-e2e-pool";
const brokenEndpoint = "dc-e2e-broken";
const otherTeamEndpoint = "team-b-ranker";
const cpuImage = /decision-adapter .*\bcpu\b/;
let deployQuery = "";

type DecisionResult = {
  option_ids: string[];
  probabilities: number[];
  answer_token_ids: number[];
  full_vocab_argmax_id: number;
  allowed_token_mass: number;
  model: { file: string; sha256: string; chat_template: string };
};

function invokeResponse(page: Page): Promise<Response> {
  return page.waitForResponse(
    (response) => response.url().endsWith("/invoke") && response.request().method() === "POST",
  );
}

test("the endpoints page guides to the first deployment", async ({ page }, testInfo) => {
  const endpoints = new EndpointsPage(page);
  await endpoints.goto();
  await expect(page.getByRole("heading", { name: "No endpoints yet" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Package a model" })).toBeVisible();
  await checkPage(page, testInfo, "endpoints-empty");
});

test("a model-packaging build fetches the pinned GGUF and offers Deploy this", async ({ page }, testInfo) => {
  const builds = new BuildsPage(page);
  await builds.goto();
  await checkPage(page, testInfo, "builds");
  // The trained model's preset when `npm run models:fetch` cached it, else the generated model by its pin.
  const trained = readTrainedModelPin();
  const id = trained ? await builds.packagePreset(trained.label) : await builds.packageCustomModel(readModelPin());
  const detail = new BuildDetailPage(page);
  await detail.waitForSuccess(180_000);
  await expect(page.getByText(/^s3:\/\/.+/).first()).toBeVisible();
  await checkPage(page, testInfo, "build-detail");
  await detail.deployThis();
  deployQuery = new URL(page.url()).search;
  expect(deployQuery).toContain("model=s3");
  expect(id).not.toBe("");
});

test("deploying the packaged model on a CPU instance reaches InService in the table", async ({ page }, testInfo) => {
  const deploy = new DeployPage(page);
  await deploy.goto(deployQuery);
  await expect(page.getByLabel("Model S3 URI")).toHaveValue(/^s3:\/\//);
  const trained = readTrainedModelPin();
  if (trained) {
    await expect(page.getByLabel("From a finished model build").locator("option:checked")).toContainText(
      `${trained.label}: s3://`,
    );
  }
  await deploy.fill({ name: cpuEndpoint, image: { pick: cpuImage }, compute: { kind: "cpu", threads: 1 } });
  await checkPage(page, testInfo, "deploy-form");
  // Each field is checked as it is typed, in plain words at the field, and Review waits until it is fixed.
  const instances = page.getByLabel("Instance count");
  await instances.fill("0");
  await expect(page.getByText("At least 1 instance.", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Review deployment" }).click();
  await expect(page.getByRole("heading", { name: "Review the deployment" })).toHaveCount(0);
  await instances.fill("1");
  await page.getByRole("button", { name: "Review deployment" }).click();
  await checkPage(page, testInfo, "deploy-review");
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
  await expect(page.getByRole("heading", { name: `Deploying ${cpuEndpoint}` })).toBeVisible();

  const endpoints = new EndpointsPage(page);
  await endpoints.goto();
  await endpoints.waitForStatus(cpuEndpoint, "InService");
  await expect(endpoints.row(cpuEndpoint)).toContainText("ml.c6i.2xlarge");
  await checkPage(page, testInfo, "endpoints");
});

test("an endpoint another team created is listed as not managed, and the console may not touch it", async ({
  page,
}) => {
  const { controlPlaneFile, controlPlaneDataDir } = e2eSettings();
  // Another team in the same account: the admin profile, not the console's.
  const otherTeam = new SageMakerClient({
    region: "us-east-1",
    endpoint: fs.readFileSync(controlPlaneFile, "utf8"),
    credentials: readLocalAccessKey(controlPlaneDataDir, "admin"),
    maxAttempts: 1,
  });
  await createEndpoint(
    otherTeam,
    otherTeamEndpoint,
    {
      Image: "000000000000.dkr.ecr.us-east-1.amazonaws.com/decision-adapter:cpu",
      ModelDataUrl: "s3://decision-console-local/models/team-b/model.tar.gz",
    },
    { executionRoleArn: executionRoleArnOf(workspaceStackFixture().stack, LOCAL_ACCOUNT_ID) },
  );
  const endpoints = new EndpointsPage(page);
  await endpoints.goto();
  await expect(endpoints.unmanagedRow(otherTeamEndpoint)).toContainText("not managed by this console");
  await expect(endpoints.unmanagedRow(otherTeamEndpoint).getByRole("link")).toHaveCount(0);
  await expect(page.getByText("1 endpoint is not managed by this console")).toBeVisible();
  await expect(endpoints.row(cpuEndpoint)).toHaveCount(1);
  const deleted = await page.request.delete(`/api/endpoints/${otherTeamEndpoint}`);
  // The console refuses a name outside its prefix itself, before any AWS call (security issue 25).
  expect(deleted.status()).toBe(403);
  expect(await deleted.text()).toMatch(
    new RegExp(`${otherTeamEndpoint} is not managed by this console: it manages names starting with \\S+\\.`),
  );
  otherTeam.destroy();
});

test("a decision's probability bars carry the API's probabilities in option order", async ({ page }, testInfo) => {
  const playground = new PlaygroundPage(page);
  await playground.goto(cpuEndpoint);
  await playground.loadExample("routing");
  const answered = invokeResponse(page);
  await playground.run();
  const response = await answered;
  expect(response.status()).toBe(200);
  // The console passes the container's answer through as it sent it.
  const api = (await response.json()) as { result: DecisionResult };
  const meters = await playground.meters("route-ticket");
  expect(meters.map((meter) => meter.option)).toEqual(["billing", "technical", "account", "sales"]);
  expect(meters.map((meter) => meter.option)).toEqual(api.result.option_ids);
  for (const [index, meter] of meters.entries()) {
    expect(meter.value).toBeCloseTo(api.result.probabilities[index] ?? Number.NaN, 12);
  }
  const best = api.result.probabilities.indexOf(Math.max(...api.result.probabilities));
  expect(meters.findIndex((meter) => meter.argmax)).toBe(best);
  await expect(page.getByTestId("application-action")).toContainText(/Act: |Fall back/);
  const trained = readTrainedModelPin();
  if (trained) {
    // A trained model read through its own chat template answers in the prompt's format: its most likely next
    // token over the whole vocabulary is an option's letter (random weights put it anywhere).
    const { result } = api;
    expect(result.model).toMatchObject({ file: trained.file, sha256: trained.sha256, chat_template: "gguf" });
    expect(result.answer_token_ids).toContain(result.full_vocab_argmax_id);
    await expect(page.getByRole("region", { name: "Answer for route-ticket" })).toContainText(
      result.allowed_token_mass.toFixed(4),
    );
  }
  await checkPage(page, testInfo, "playground-decision");
});

test("an asynchronous deployment queues playground decisions and shows the answers from S3", async ({
  page,
}, testInfo) => {
  const deploy = new DeployPage(page);
  await deploy.goto(deployQuery);
  await deploy.fill({ name: asyncEndpoint, image: { pick: cpuImage }, compute: { kind: "cpu", threads: 1 } });
  await deploy.chooseAsynchronous(2);
  await page.getByRole("button", { name: "Review deployment" }).click();
  await expect(page.getByText(/may scale to 0 instances/)).toBeVisible();
  await expect(page.getByText(/cold start/)).toBeVisible();
  await checkPage(page, testInfo, "deploy-review-async");
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
  const endpoints = new EndpointsPage(page);
  await endpoints.goto();
  await endpoints.waitForStatus(asyncEndpoint, "InService");

  const playground = new PlaygroundPage(page);
  await playground.goto(asyncEndpoint);
  await playground.loadExample("routing");
  const queued = page.waitForResponse(
    (response) => response.url().endsWith("/invoke-async") && response.request().method() === "POST",
  );
  await playground.run();
  expect((await queued).status()).toBe(202);
  const meters = await playground.meters("route-ticket");
  expect(meters.map((meter) => meter.option)).toEqual(["billing", "technical", "account", "sales"]);
  expect(meters.reduce((sum, meter) => sum + meter.value, 0)).toBeCloseTo(1, 6);
  await expect(page.getByLabel("Request snippet code")).toContainText("InvokeEndpointAsyncCommand");
  await checkPage(page, testInfo, "playground-async");
});

test("an asynchronous endpoint's page lists the playground's request with its S3 locations", async ({
  page,
}, testInfo) => {
  await new EndpointDetailPage(page).goto(asyncEndpoint);
  const table = page.getByRole("table", { name: "Recent asynchronous requests and their S3 locations" });
  const row = table.getByRole("row").nth(1);
  await expect(row).toContainText("done", { timeout: 30_000 });
  await expect(row).toContainText(`Playground · ${e2eSettings().user.name}`);
  for (const folder of ["in", "out", "failed"]) {
    await expect(row).toContainText(new RegExp(`s3://[^ ]+/async/${asyncEndpoint}/${folder}/`));
  }
  await checkPage(page, testInfo, "endpoint-async-requests");
});

test("an asynchronous endpoint's autoscaling card turns on scale to zero when idle", async ({ page }) => {
  const detail = new EndpointDetailPage(page);
  await detail.goto(asyncEndpoint);
  await detail.enableScaleToZero(1, 5);
  const card = detail.autoscalingCard();
  await expect(card).toContainText("on, target 5 queued requests per instance");
  await expect(detail.instancesNow()).toHaveText("1");
  await expect(card).toContainText("waits in the queue for a cold start first");
});

test("shared decisions answer every decision on one state", async ({ page }) => {
  const playground = new PlaygroundPage(page);
  await playground.goto(cpuEndpoint);
  await playground.loadExample("extraction");
  const answered = invokeResponse(page);
  await playground.run();
  const api = (await (await answered).json()) as {
    results: { id: string; probabilities: number[] }[];
    timing: { batch_size: number };
  };
  expect(api.results.map((result) => result.id)).toEqual(["has-invoice-number", "has-customer-id"]);
  expect(api.timing.batch_size).toBe(2);
  for (const result of api.results) {
    const meters = await playground.meters(result.id);
    expect(meters.map((meter) => meter.value)).toEqual(result.probabilities);
  }
});

test("systemone questions get one probability bar per label", async ({ page }) => {
  const playground = new PlaygroundPage(page);
  await playground.goto(cpuEndpoint);
  await playground.loadExample("systemone");
  await expect(page.getByLabel("Request JSON")).toHaveValue(/"questions"/);
  const answered = invokeResponse(page);
  await playground.run();
  const api = (await (await answered).json()) as {
    answers: Record<string, { probabilities?: Record<string, number>; x_probabilities?: Record<string, number> }>;
  };
  expect(Object.keys(api.answers)).toEqual(["refund", "team", "anger"]);
  for (const [id, answer] of Object.entries(api.answers)) {
    // A noul answer's documented field is `noul` (P(yes)); its bars come from the adapter's x_probabilities.
    const probabilities = answer.probabilities ?? answer.x_probabilities!;
    const meters = page.getByRole("list", { name: `Probabilities for ${id}` }).getByRole("meter");
    await expect(meters).toHaveCount(Object.keys(probabilities).length);
    for (const [index, [label, probability]] of Object.entries(probabilities).entries()) {
      await expect(meters.nth(index)).toHaveAttribute("aria-label", label);
      expect(Number(await meters.nth(index).getAttribute("aria-valuenow"))).toBeCloseTo(probability, 12);
    }
  }
});

test("the threshold decides between acting on the top option and falling back", async ({ page }) => {
  const playground = new PlaygroundPage(page);
  await playground.goto(cpuEndpoint);
  await playground.loadExample("priority");
  await playground.run();
  await playground.meters("ticket-priority");
  const action = page.getByTestId("application-action");
  await page.getByLabel("Threshold").fill("0");
  await expect(action).toContainText("Act: ");
  await page.getByLabel("Threshold").fill("1");
  await expect(action).toContainText("Fall back");
});

test("a bad request is explained in words", async ({ page }) => {
  const playground = new PlaygroundPage(page);
  await playground.goto(cpuEndpoint);
  await playground.setRequestJson({
    decision: { id: "x", state: "s", question: "q", options: [{ id: "only", description: "" }] },
  });
  await playground.run();
  const explained = page.getByRole("alert").filter({ hasText: "The request failed" });
  await expect(explained).toContainText("The model container rejected the request (HTTP 400)");
  await expect(explained).toContainText("options must contain 2-255 entries");
});

test("chat streams the model's answer into the conversation", async ({ page }, testInfo) => {
  const playground = new PlaygroundPage(page);
  await playground.goto(cpuEndpoint);
  const streamed = page.waitForResponse((response) => response.url().endsWith("/invoke"));
  const message = await playground.chat("Once upon a time");
  const response = await streamed;
  expect(response.headers()["content-type"]).toContain("text/event-stream");
  await expect(message).not.toBeEmpty({ timeout: 60_000 });
  await checkPage(page, testInfo, "playground-chat");
});

test("an instance pool falls back past a type short of capacity", async ({ page }, testInfo) => {
  const { shortCapacityType } = e2eSettings();
  const deploy = new DeployPage(page);
  await deploy.goto(deployQuery);
  await deploy.fill({
    name: poolEndpoint,
    image: { pick: cpuImage },
    compute: { kind: "gpu-pool", pools: [shortCapacityType, "ml.g6.2xlarge"] },
  });
  await deploy.reviewAndDeploy();
  const endpoints = new EndpointsPage(page);
  await endpoints.goto();
  await endpoints.waitForStatus(poolEndpoint, "InService");
  await expect(endpoints.row(poolEndpoint)).toContainText("ml.g6.2xlarge");
  await expect(endpoints.row(poolEndpoint)).toContainText("fallback pool");
  const detail = new EndpointDetailPage(page);
  await detail.goto(poolEndpoint);
  await expect(detail.poolRow("ml.g6.2xlarge")).toContainText("fallback serving");
  await checkPage(page, testInfo, "endpoint-detail-fallback");
});

test("autoscaling settings are saved and shown on the endpoint page", async ({ page }) => {
  const detail = new EndpointDetailPage(page);
  await detail.goto(poolEndpoint);
  await page.getByRole("button", { name: "Configure autoscaling" }).click();
  await page.getByLabel("Minimum instances").fill("1");
  await page.getByLabel("Maximum instances").fill("3");
  await page.getByLabel("Target invocations per instance per minute").fill("120");
  await page.getByRole("button", { name: "Save autoscaling" }).click();
  const card = page.locator("section", { has: page.getByRole("heading", { name: "Autoscaling" }) });
  await expect(card).toContainText("1 to 3", { timeout: 30_000 });
  await expect(card).toContainText("120");
});

test("scaling an endpoint adds an instance", async ({ page }) => {
  const detail = new EndpointDetailPage(page);
  await detail.goto(poolEndpoint);
  await page.getByLabel("Instance count").fill("2");
  await page.getByRole("button", { name: "Scale", exact: true }).click();
  await expect(page.getByText("Update started")).toBeVisible();
  const endpoints = new EndpointsPage(page);
  await endpoints.goto();
  await expect(endpoints.row(poolEndpoint)).toContainText("×2", { timeout: 120_000 });
  await endpoints.waitForStatus(poolEndpoint, "InService");
});

test("a deployment whose image cannot be pulled shows the failure reason", async ({ page }, testInfo) => {
  const deploy = new DeployPage(page);
  await deploy.goto(deployQuery);
  const option = page.getByLabel("Deployable image").locator("option", { hasText: cpuImage });
  const goodImage = (await option.getAttribute("value")) ?? "";
  const missingImage = goodImage.replace(/@sha256:[0-9a-f]{64}$/, `@sha256:${"0".repeat(64)}`);
  expect(missingImage).not.toBe(goodImage);
  await deploy.fill({ name: brokenEndpoint, image: { uri: missingImage }, compute: { kind: "cpu", threads: 1 } });
  await deploy.reviewAndDeploy();
  await expect(page.getByRole("alert").filter({ hasText: "Deployment failed" })).toContainText(/image/i, {
    timeout: 120_000,
  });
  const detail = new EndpointDetailPage(page);
  await detail.goto(brokenEndpoint);
  await expect(detail.failureReason()).toContainText(/image/i);
  await checkPage(page, testInfo, "endpoint-detail-failed");
});

test("the endpoint detail page shows settings, invocations, metrics and instances, and delete asks for the name", async ({
  page,
}, testInfo) => {
  const detail = new EndpointDetailPage(page);
  await detail.goto(cpuEndpoint);
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Recent invocations from this console" })).toBeVisible();
  await expect(page.getByRole("img", { name: /^Invocations:/ })).toBeVisible();
  await expect(page.getByRole("img", { name: /^Instances: latest \d+ count/ })).toBeVisible();
  // Issue 32: a range picker that changes the query's period, live activity, /ping hidden, the console's alarms.
  await expect(page.getByRole("button", { name: "3 h", pressed: true })).toBeVisible();
  await page.getByRole("button", { name: "1 h" }).click();
  await expect(page.getByText(/1-minute\s+periods, variant/)).toBeVisible();
  await expect(page.getByText(/newest first, refreshed every 10 s/i).first()).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "Show /ping health checks" })).not.toBeChecked();
  await expect(page.getByRole("heading", { name: "Alarms (CloudWatch)" })).toBeVisible();
  await checkPage(page, testInfo, "endpoint-detail");
  await detail.delete(cpuEndpoint);
  const endpoints = new EndpointsPage(page);
  await expect(async () => {
    await endpoints.goto();
    await expect(endpoints.row(cpuEndpoint)).toHaveCount(0, { timeout: 5_000 });
  }).toPass({ timeout: 120_000 });
});

test("the other pages of the console pass the same accessibility check", async ({ page }, testInfo) => {
  for (const [path, name] of [
    ["/evaluate", "evaluate"],
    ["/audit", "audit"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await checkPage(page, testInfo, name);
  }
});

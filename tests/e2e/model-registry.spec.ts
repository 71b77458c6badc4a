import { expect, test } from "@playwright/test";
import { DeployPage } from "./pages/deploy-page.ts";
import { EndpointsPage } from "./pages/endpoints-page.ts";
import { EvaluatePage } from "./pages/evaluate-page.ts";
import { LoginPage } from "./pages/login-page.ts";
import { checkPage } from "./support/a11y.ts";
import { deleteEndpoint, deployPackagedModel } from "./support/deploy-packaged-model.ts";
import { e2eSettings } from "./support/e2e-settings.ts";

/**
 * The Model Registry as a team uses it: a build's output is deployed as a candidate and evaluated on JevBench,
 * registered as a version with that evaluation, approved by an operator (a viewer cannot), deployed from the
 * version, and the endpoint page leads back to the version, its build and its evaluation.
 */
test.describe.configure({ mode: "serial" });

const candidate = "dc-e2e-registry-candidate";
const serving = "dc-e2e-registry-serving";
const group = "dc-e2e-router";
const versionPath = `/models/${group}/1`;

test("a candidate is packaged, deployed and evaluated on JevBench", async ({ page }) => {
  await deployPackagedModel(page, candidate);
  const evaluate = new EvaluatePage(page);
  await evaluate.goto();
  await page
    .getByText("JevBench public decisions (231 items, MIT)")
    .locator("..")
    .getByRole("button", { name: "Use this sample" })
    .click();
  await expect(page.getByLabel("Dataset", { exact: true })).toHaveValue(/.+/);
  await evaluate.start(candidate, 4);
  await evaluate.waitForEnd(231, 280_000);
});

test("the build's output is registered as a version and the JevBench run attached", async ({ page }, testInfo) => {
  await page.goto("/models");
  await expect(page.getByRole("heading", { name: "Models", level: 1 })).toBeVisible();
  await checkPage(page, testInfo, "models");
  // The form names each problem at its field before anything is sent.
  await page.getByRole("button", { name: "Register version" }).click();
  await expect(page.getByText("Model build: choose a build")).toBeVisible();
  await page.getByLabel("Model group").fill(group);
  await page.getByLabel("Group description (optional)").fill("Routes support tickets");
  await page.getByLabel("Model build").selectOption({ index: 1 });
  const image = page.getByLabel("Adapter image");
  const cpu = await image.locator("option", { hasText: /decision-adapter .*\bcpu\b/ }).getAttribute("value");
  await image.selectOption(cpu ?? "");
  await page.getByLabel("Version description (optional)").fill("first candidate");
  await page.getByRole("button", { name: "Register version" }).click();
  await page.waitForURL(new RegExp(`${versionPath}$`));
  await expect(page.getByRole("heading", { name: `${group} v1`, level: 1 })).toBeVisible();
  await expect(page.getByText("Pending approval").first()).toBeVisible();
  // No approval without an evaluation to judge it on.
  await expect(page.getByRole("button", { name: "Approve" })).toBeDisabled();

  const run = page.getByLabel("Attach an evaluation run");
  const jevbenchRun = await run
    .locator("option", { hasText: `jevbench on ${candidate}` })
    .first()
    .getAttribute("value");
  await run.selectOption(jevbenchRun ?? "");
  await page.getByRole("button", { name: "Attach evaluation" }).click();
  const evaluation = page.getByTestId("version-evaluation");
  await expect(evaluation).toContainText("jevbench (231)");
  await expect(page.getByText(/report s3:\/\/.+\/evaluation-reports\/dc-e2e-router\//i)).toBeVisible();
  await checkPage(page, testInfo, "model-version");
});

test("a viewer reads the version but cannot approve it", async ({ browser }) => {
  const { viewer } = e2eSettings();
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await new LoginPage(page).signIn(viewer.name, viewer.password);
  await page.goto(versionPath);
  await expect(page.getByRole("heading", { name: `${group} v1`, level: 1 })).toBeVisible();
  await expect(page.getByText("Only operators approve or reject versions.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  const refused = await page.request.post(`/api/models/${group}/1/approval`, {
    data: { status: "Approved", note: "a viewer tries" },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(refused.status()).toBe(403);
  await context.close();
});

test("an operator approves it with a note, and the audit log records who", async ({ page }) => {
  await page.goto(versionPath);
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("Say why: the note is kept with the version and in the audit log.")).toBeVisible();
  await page.getByLabel("Note").fill("JevBench accuracy holds against the baseline");
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByTestId("approval-note")).toHaveText("“JevBench accuracy holds against the baseline”");
  await expect(page.getByText("Approved", { exact: true }).first()).toBeVisible();
  await page.goto("/audit");
  await expect(page.getByRole("cell", { name: "model.approve" }).first()).toBeVisible();
  await page.goto(`/models/${group}`);
  const comparison = page.getByTestId("versions-comparison");
  const first = comparison.getByRole("row").filter({ hasText: "v1" });
  await expect(first).toHaveCount(1);
  await expect(first).toContainText("Approved");
  await expect(first).toContainText("jevbench (231)");
});

test("the approved version is deployed and the endpoint page shows its lineage", async ({ page }, testInfo) => {
  await page.goto(versionPath);
  await page.getByRole("link", { name: "Deploy this version" }).click();
  await page.waitForURL(/\/deploy\?version=/);
  const deploy = new DeployPage(page);
  await expect(page.getByTestId("picked-version")).toContainText(`${group} v1`);
  await deploy.fill({ name: serving, compute: { kind: "cpu", threads: 1 } });
  await deploy.review();
  await expect(page.getByText(/arn:aws:sagemaker:.+:model-package\/dc-e2e-router\/1/)).toBeVisible();
  await deploy.deploy();
  const endpoints = new EndpointsPage(page);
  await endpoints.goto();
  await endpoints.waitForStatus(serving, "InService");

  await page.goto(`/endpoints/${serving}`);
  const lineage = page.getByTestId("endpoint-lineage");
  await expect(lineage.getByRole("link", { name: `${group} v1` })).toBeVisible();
  await expect(lineage).toContainText("Approved");
  await expect(lineage).toContainText("decision-console-model-package:");
  await expect(lineage).toContainText(/build-sources\/[0-9a-f]{64}\.zip/);
  await checkPage(page, testInfo, "endpoint-lineage");
  await lineage.getByRole("link", { name: /on jevbench \(231 items\)/ }).click();
  await page.waitForURL(/\/evaluate\/[0-9a-f-]{36}$/);

  await page.goto(versionPath);
  await expect(page.getByRole("list", { name: "Endpoints serving this version" })).toContainText(serving);
});

test("the registry's endpoints are deleted", async ({ page }) => {
  await deleteEndpoint(page, serving);
  await deleteEndpoint(page, candidate);
});

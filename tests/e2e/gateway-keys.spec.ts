import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { KeysPage } from "./pages/keys-page.ts";
import { deleteEndpoint, deployPackagedModel } from "./support/deploy-packaged-model.ts";

/**
 * Issue 54: an operator creates a gateway key on the Keys page, an application outside the browser calls a
 * decision with it (the page's own openai snippet, run with the project's Python), and the page shows the call.
 */
test.describe.configure({ mode: "serial" });

const endpoint = "dc-e2e-gateway";
const repoRoot = path.resolve(import.meta.dirname, "..", "..");
const python = path.join(repoRoot, ".venv-tests", "bin", "python");

test("an endpoint to call", async ({ page }) => {
  await deployPackagedModel(page, endpoint);
});

test("a key created on the Keys page calls a decision from outside the browser, and the page shows its usage", async ({
  page,
}, testInfo) => {
  test.skip(!fs.existsSync(python), "no .venv-tests (npm run py:env creates it)");
  const keys = new KeysPage(page);
  await keys.goto();
  const secret = await keys.create({ name: "e2e-app", endpoints: endpoint, aliases: `jev-latest=${endpoint}` });
  await expect(keys.calls("e2e-app")).toHaveText("0");

  const snippet = (await keys.snippet("openai").textContent())!;
  expect(snippet).toContain(secret);
  const file = testInfo.outputPath("gateway-snippet.py");
  fs.writeFileSync(file, snippet);
  const run = await promisify(execFile)(python, [file], { encoding: "utf8", timeout: 120_000 });
  const probability = Number(run.stdout.trim());
  expect(probability).toBeGreaterThanOrEqual(0);
  expect(probability).toBeLessThanOrEqual(1);

  await page.reload();
  await expect(keys.calls("e2e-app")).toHaveText("1");
});

test("clean up", async ({ page }) => {
  await deleteEndpoint(page, endpoint);
});

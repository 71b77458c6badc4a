import path from "node:path";
import { test as setup } from "@playwright/test";
import { LoginPage } from "./pages/login-page.ts";
import { checkPage } from "./support/a11y.ts";
import { e2eSettings } from "./support/e2e-settings.ts";

setup("an operator signs in", async ({ page }, testInfo) => {
  const { user, stateDir } = e2eSettings();
  await page.goto("/login");
  await checkPage(page, testInfo, "login");
  await new LoginPage(page).signIn(user.name, user.password);
  await page.context().storageState({ path: path.join(stateDir, "operator.json") });
});

import { expect, type Page } from "@playwright/test";
import type { ModelPin } from "../support/e2e-settings.ts";

export class BuildsPage {
  constructor(readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto("/builds");
    await expect(this.page.getByRole("heading", { name: "Builds", level: 1 })).toBeVisible();
    await expect(this.page.getByText("Loading builds…")).toHaveCount(0);
  }

  /** Starts a model-packaging build of a preset, chosen by its label, and returns the build page's id. */
  async packagePreset(label: string): Promise<string> {
    await this.page.getByLabel("Model", { exact: true }).selectOption({ label });
    await this.page.getByRole("button", { name: "Start model build" }).click();
    await this.page.waitForURL(/\/builds\/[^/]+$/);
    return decodeURIComponent(new URL(this.page.url()).pathname.split("/").at(-1) ?? "");
  }

  /** Starts a model-packaging build of a custom pinned GGUF and returns the build page's id. */
  async packageCustomModel(pin: ModelPin): Promise<string> {
    await this.page.getByLabel("Model", { exact: true }).selectOption("custom");
    await this.page.getByLabel("Repository (owner/name)").fill(pin.repo);
    await this.page.getByLabel("Revision (40-hex commit)").fill(pin.revision);
    await this.page.getByLabel("GGUF file").fill(pin.file);
    await this.page.getByLabel("sha256 of the file").fill(pin.sha256);
    await this.page.getByRole("button", { name: "Start model build" }).click();
    await this.page.waitForURL(/\/builds\/[^/]+$/);
    return decodeURIComponent(new URL(this.page.url()).pathname.split("/").at(-1) ?? "");
  }
}

export class BuildDetailPage {
  constructor(readonly page: Page) {}

  async goto(id: string): Promise<void> {
    await this.page.goto(`/builds/${encodeURIComponent(id)}`);
  }

  /** Waits for the build's own status, in the header beside its id (its phases say SUCCEEDED long before). */
  async waitForSuccess(timeout = 120_000): Promise<void> {
    const header = this.page
      .getByRole("main")
      .getByRole("paragraph")
      .filter({ hasText: /:[0-9a-f-]{36}$/ });
    await expect(header).toHaveText(/^SUCCEEDED/, { timeout });
  }

  async deployThis(): Promise<void> {
    await this.page.getByRole("link", { name: "Deploy this" }).click();
    await this.page.waitForURL(/\/deploy\?/);
  }
}

/**
 * Packages the pinned model from the builds page (a preset by its label when the pin has one), waits for its build
 * and follows its "Deploy this" link.
 */
export async function packageAndOpenDeploy(page: Page, pin: ModelPin & { label?: string }): Promise<void> {
  const builds = new BuildsPage(page);
  await builds.goto();
  if (pin.label) await builds.packagePreset(pin.label);
  else await builds.packageCustomModel(pin);
  const build = new BuildDetailPage(page);
  await build.waitForSuccess(180_000);
  await build.deployThis();
}

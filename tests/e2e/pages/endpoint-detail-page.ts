import { expect, type Locator, type Page } from "@playwright/test";

export class EndpointDetailPage {
  constructor(readonly page: Page) {}

  async goto(name: string): Promise<void> {
    await this.page.goto(`/endpoints/${encodeURIComponent(name)}`);
    await expect(this.page.getByRole("heading", { name, level: 1 })).toBeVisible();
  }

  failureReason(): Locator {
    return this.page.getByRole("alert").filter({ hasText: "Failure reason" });
  }

  poolRow(instanceType: string): Locator {
    return this.page.getByRole("row").filter({ hasText: instanceType });
  }

  autoscalingCard(): Locator {
    return this.page.locator("section", { has: this.page.getByRole("heading", { name: "Autoscaling" }) });
  }

  /** The autoscaling card's "Instances now": the variant's current instance count. */
  instancesNow(): Locator {
    return this.autoscalingCard().getByTestId("autoscaling-instances");
  }

  /** Asynchronous endpoints: MinCapacity 0 with the backlog target-tracking and wake-up policies. */
  async enableScaleToZero(maxInstances: number, queuedPerInstance: number): Promise<void> {
    const card = this.autoscalingCard();
    await card.getByRole("button", { name: /^(Configure|Edit) autoscaling$/ }).click();
    await card.getByLabel(/Scale to zero when idle/).check();
    await expect(card.getByLabel("Minimum instances")).toHaveValue("0");
    await card.getByLabel("Maximum instances").fill(String(maxInstances));
    await card.getByLabel("Target queued requests per instance").fill(String(queuedPerInstance));
    await card.getByRole("button", { name: "Save autoscaling" }).click();
    await expect(card).toContainText(`0 to ${maxInstances}`, { timeout: 30_000 });
  }

  async delete(name: string): Promise<void> {
    await this.page.getByRole("button", { name: "Delete endpoint" }).click();
    const dialog = this.page.getByRole("dialog", { name: `Delete ${name}?` });
    const confirm = dialog.getByRole("button", { name: "Delete permanently" });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel(`Type ${name} to confirm`).fill(name);
    await confirm.click();
    await this.page.waitForURL("**/endpoints");
  }
}

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

import { expect, type Locator, type Page } from "@playwright/test";

export class EndpointsPage {
  readonly table: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByRole("table", { name: "Endpoints" });
  }

  async goto(): Promise<void> {
    await this.page.goto("/endpoints");
    await expect(this.page.getByRole("heading", { name: "Endpoints", level: 1 })).toBeVisible();
  }

  row(name: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("link", { name, exact: true }) });
  }

  /** The row of an endpoint the console does not manage: its name is plain text, not a link. */
  unmanagedRow(name: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByText(name, { exact: true }) });
  }

  async filter(text: string): Promise<void> {
    await this.page.getByLabel("Filter endpoints").fill(text);
  }

  /** The table refreshes on its own while something is Creating; no reload is needed. */
  async waitForStatus(name: string, status: string, timeout = 180_000): Promise<void> {
    await expect(this.row(name).getByText(status, { exact: true })).toBeVisible({ timeout });
  }

  async open(name: string): Promise<void> {
    await this.table.getByRole("link", { name, exact: true }).click();
    await expect(this.page.getByRole("heading", { name, level: 1 })).toBeVisible();
  }
}

import { expect, type Page } from "@playwright/test";

export class EvaluatePage {
  constructor(readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto("/evaluate");
    await expect(this.page.getByRole("heading", { name: "Evaluate", level: 1 })).toBeVisible();
  }

  async upload(fileName: string, text: string, name: string): Promise<void> {
    await this.page.getByLabel("JSON Lines or CSV file").setInputFiles({
      name: fileName,
      mimeType: "application/x-ndjson",
      buffer: Buffer.from(text),
    });
    await this.page.getByLabel("Name (optional)").fill(name);
    await this.page.getByRole("button", { name: "Upload dataset" }).click();
  }

  async start(endpointName: string, concurrency = 1): Promise<string> {
    const form = this.page.getByRole("form", { name: "Run an evaluation" });
    await expect(form.getByLabel("Dataset")).not.toHaveValue("");
    await form.getByLabel("Endpoint", { exact: true }).fill(endpointName);
    await form.getByLabel("Concurrency per endpoint").fill(String(concurrency));
    await form.getByRole("button", { name: "Start evaluation" }).click();
    await this.page.waitForURL(/\/evaluate\/[0-9a-f-]{36}$/);
    return new URL(this.page.url()).pathname.split("/").at(-1) ?? "";
  }

  async waitForEnd(total: number, timeout = 180_000): Promise<void> {
    await expect(this.page.getByTestId("progress-text")).toContainText(`${total} of ${total} requests done`, {
      timeout,
    });
    await expect(this.page.getByTestId("progress-text")).toContainText("completed");
  }
}

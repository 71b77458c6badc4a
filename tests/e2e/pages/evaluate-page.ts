import { expect, type Locator, type Page } from "@playwright/test";

/** The evaluate home (datasets, the run form) and a run's page. */
export class EvaluatePage {
  constructor(readonly page: Page) {}

  get form(): Locator {
    return this.page.getByRole("form", { name: "Run an evaluation" });
  }

  async goto(): Promise<void> {
    await this.page.goto("/evaluate");
    await expect(this.page.getByRole("heading", { name: "Evaluate", level: 1 })).toBeVisible();
  }

  async upload(fileName: string, text: string | Buffer, name: string): Promise<void> {
    await this.page.getByLabel("JSON Lines or CSV file").setInputFiles({
      name: fileName,
      mimeType: "application/x-ndjson",
      buffer: Buffer.from(text),
    });
    await this.page.getByLabel("Name (optional)").fill(name);
    await this.page.getByRole("button", { name: "Upload dataset" }).click();
  }

  async chooseDataset(label: string): Promise<void> {
    await this.page.getByLabel("Dataset", { exact: true }).selectOption({ label });
  }

  /** A real-time run on one InService endpoint, picked from the list; returns the run's id. */
  async start(endpointName: string, concurrency = 1): Promise<string> {
    await expect(this.form.getByLabel("Dataset")).not.toHaveValue("");
    await this.form.getByLabel("Endpoints (real time)").check();
    await this.form.getByLabel("Endpoint", { exact: true }).selectOption(endpointName);
    await this.form.getByLabel("Concurrency per endpoint").fill(String(concurrency));
    return this.submit();
  }

  /** A run of a model as a Batch Transform job; returns the run's id. */
  async startBatch(options: {
    model: string;
    instanceType?: string;
    instanceCount: number;
    maxConcurrentTransforms?: number;
  }): Promise<string> {
    await expect(this.form.getByLabel("Dataset")).not.toHaveValue("");
    await this.form.getByLabel("A model, as a batch transform job").check();
    await this.form.getByLabel("Model", { exact: true }).selectOption(options.model);
    if (options.instanceType) await this.form.getByLabel("Instance type").selectOption(options.instanceType);
    await this.form.getByLabel("Instance count").fill(String(options.instanceCount));
    await this.form.getByLabel("Max concurrent transforms").fill(String(options.maxConcurrentTransforms ?? ""));
    return this.submit();
  }

  private async submit(): Promise<string> {
    await this.form.getByRole("button", { name: "Start evaluation" }).click();
    await this.page.waitForURL(/\/evaluate\/[0-9a-f-]{36}$/);
    return new URL(this.page.url()).pathname.split("/").at(-1) ?? "";
  }

  async waitForEnd(total: number, timeout = 180_000): Promise<void> {
    await expect(this.page.getByTestId("progress-text")).toContainText(`${total} of ${total} requests done`, {
      timeout,
    });
    await expect(this.page.getByTestId("progress-text")).toContainText("completed");
  }

  /** Waits until every item of the run is done and the run has ended with `outcome` ("completed with failures"). */
  async waitForOutcome(total: number, outcome: string, timeout = 180_000): Promise<void> {
    await expect(this.page.getByTestId("progress-text")).toHaveText(
      new RegExp(`^${total} of ${total} requests done \\(100%\\) · ${outcome}$`),
      { timeout },
    );
  }

  /** One figure of an endpoint's results ("Failed (no answer)", "Correct of answered", "Accuracy"). */
  metric(endpointName: string, label: string): Locator {
    return this.page
      .getByLabel(`Metrics of ${endpointName}`, { exact: true })
      .locator("div", { has: this.page.getByRole("term").filter({ hasText: new RegExp(`^${escaped(label)}$`) }) })
      .getByRole("definition");
  }

  async cancel(): Promise<void> {
    await this.page.getByRole("button", { name: "Cancel evaluation" }).click();
    await expect(this.page.getByTestId("progress-text")).toContainText("cancelled");
  }

  async retryFailed(): Promise<void> {
    await this.page.getByRole("button", { name: "Retry the failed items" }).click();
  }
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

import { expect, type Locator, type Page } from "@playwright/test";

export type Meter = { option: string; value: number; argmax: boolean };

export class PlaygroundPage {
  constructor(readonly page: Page) {}

  async goto(endpoint?: string): Promise<void> {
    await this.page.goto(endpoint ? `/playground?endpoint=${encodeURIComponent(endpoint)}` : "/playground");
    await expect(this.page.getByRole("heading", { name: "Playground", level: 1 })).toBeVisible();
  }

  async chooseEndpoint(name: string): Promise<void> {
    await this.page.getByLabel("Endpoint", { exact: true }).selectOption(name);
  }

  async loadExample(key: string): Promise<void> {
    await this.page.getByLabel("Example").selectOption(key);
  }

  async tab(name: "Decision form" | "Raw JSON" | "Chat"): Promise<void> {
    await this.page.getByRole("tab", { name }).click();
  }

  async setRequestJson(body: unknown): Promise<void> {
    await this.tab("Raw JSON");
    await this.page.getByLabel("Request JSON").fill(JSON.stringify(body, null, 2));
  }

  async run(): Promise<void> {
    await this.page.getByRole("button", { name: "Run", exact: true }).click();
  }

  answer(): Locator {
    return this.page
      .getByRole("region", { name: "Answer" })
      .or(this.page.locator("section", { hasText: "Answer" }).first());
  }

  /** The notice an asynchronous request shows while it is queued or running, or waits for a cold start. */
  queuedNotice(): Locator {
    return this.page
      .getByRole("status")
      .filter({ hasText: /Queued on the asynchronous endpoint|Cold start under way: the endpoint is at 0 instances/ });
  }

  /** The notice of a request waiting on an endpoint at 0 instances: the cold start and its expected wait. */
  coldStartNotice(): Locator {
    return this.page.getByRole("status").filter({ hasText: "Cold start under way: the endpoint is at 0 instances" });
  }

  /** The raw response body the page received from the console's invoke route. */
  async rawResponse(): Promise<unknown> {
    await this.page.getByText("Raw response").click();
    return JSON.parse((await this.page.getByTestId("raw-response").textContent()) ?? "null");
  }

  /** The protocol the form is sent in: "Decision (SemIf)", "System One (TypeSafe)" or "OpenAI Decisions". */
  async chooseProtocol(label: string): Promise<void> {
    await this.page.getByLabel("Protocol").selectOption({ label });
  }

  /** Meters of one decision answer, in the order shown. */
  async meters(decisionId: string): Promise<Meter[]> {
    return this.metersOf(`Option probabilities for ${decisionId}`);
  }

  /** Meters of one question of a System One or OpenAI Decisions answer, in the order shown. */
  async questionMeters(name: string): Promise<Meter[]> {
    return this.metersOf(`Probabilities for ${name}`);
  }

  private async metersOf(listName: string): Promise<Meter[]> {
    const group = this.page.getByRole("list", { name: listName, exact: true });
    await expect(group).toBeVisible({ timeout: 60_000 });
    const meters = group.getByRole("meter");
    const count = await meters.count();
    const values: Meter[] = [];
    for (let index = 0; index < count; index++) {
      const meter = meters.nth(index);
      values.push({
        option: (await meter.getAttribute("aria-label")) ?? "",
        value: Number(await meter.getAttribute("aria-valuenow")),
        argmax: (await meter.getAttribute("data-argmax")) === "true",
      });
    }
    return values;
  }

  async chat(message: string): Promise<Locator> {
    await this.tab("Chat");
    await this.page.getByLabel("Message").fill(message);
    await this.run();
    return this.page.getByTestId("assistant-message").last();
  }
}

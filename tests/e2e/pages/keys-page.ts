import { expect, type Locator, type Page } from "@playwright/test";

export interface NewKey {
  name: string;
  endpoints: string;
  aliases?: string;
  requestsPerMinute?: number;
}

/** The Keys page: gateway API keys, their secret once, their usage. */
export class KeysPage {
  constructor(private readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto("/keys");
    await expect(this.page.getByRole("heading", { name: "API keys" })).toBeVisible();
  }

  /** Creates a key and returns its secret, read from the page as shown once. */
  async create(key: NewKey): Promise<string> {
    const form = this.page.getByRole("form", { name: "Create an API key" });
    await form.getByLabel("Name").fill(key.name);
    await form.getByLabel("Endpoints").fill(key.endpoints);
    if (key.aliases) await form.getByLabel("Aliases").fill(key.aliases);
    if (key.requestsPerMinute) await form.getByLabel("Requests per minute").fill(String(key.requestsPerMinute));
    await form.getByRole("button", { name: "Create key" }).click();
    const secret = this.page.getByTestId("new-key-secret");
    await expect(secret).toHaveText(/^dcg_/);
    return (await secret.textContent())!.trim();
  }

  snippet(sdk: "typesafe-sdk" | "openai"): Locator {
    return this.page
      .getByRole("region", { name: "New key" })
      .locator("pre")
      .nth(sdk === "typesafe-sdk" ? 0 : 1);
  }

  calls(name: string): Locator {
    return this.page.getByTestId(`key-calls-${name}`);
  }
}

import { expect, type Locator, type Page } from "@playwright/test";

/** A decision kind as the page names it: its question and its option ids, in order. */
export interface KindOnPage {
  question: string;
  options: string[];
}

/** An endpoint's Monitoring page: the kinds table first, each kind's charts behind its row. */
export class MonitoringPage {
  constructor(private readonly page: Page) {}

  async goto(endpoint: string): Promise<void> {
    await this.page.goto(`/endpoints/${endpoint}/monitoring`);
    await expect(this.page.getByRole("heading", { name: `Monitoring: ${endpoint}`, level: 1 })).toBeVisible();
  }

  /** The window buttons: "Data span", "1 h", "6 h", "24 h", "7 d". */
  windowButton(label: string): Locator {
    return this.page.getByRole("group", { name: "Window" }).getByRole("button", { name: label, exact: true });
  }

  async chooseWindow(label: string): Promise<void> {
    await this.windowButton(label).click();
    await expect(this.windowButton(label)).toHaveAttribute("aria-pressed", "true");
  }

  /** The kind's row in the kinds table, told from a kind with the same question by its exact option set. */
  kindRow(kind: KindOnPage): Locator {
    return this.page
      .getByTestId("decision-kinds")
      .getByRole("row")
      .filter({ hasText: kind.question })
      .filter({
        has: this.page.getByTestId("kind-options").getByText(`Options: ${kind.options.join(", ")}`, { exact: true }),
      });
  }

  flags(kind: KindOnPage): Locator {
    return this.kindRow(kind).getByTestId("kind-flag");
  }

  /** Opens the kind's details from its row and returns them. */
  async openDetails(kind: KindOnPage): Promise<Locator> {
    const button = this.kindRow(kind).getByRole("button", { name: /^Details/ });
    await button.click();
    await expect(this.kindRow(kind).getByRole("button", { name: /^Hide details/ })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
    return this.details(kind);
  }

  details(kind: KindOnPage): Locator {
    return this.page.getByRole("region", { name: `Decision kind ${kind.question} (${kind.options.join(", ")})` });
  }
}

import { expect, type Page } from "@playwright/test";

export type DeployChoices = {
  name: string;
  image?: { pick: RegExp } | { uri: string };
  compute: { kind: "cpu"; instanceType?: string; threads: number } | { kind: "gpu-pool"; pools: string[] };
};

/** The generated model on the CPU adapter image, one thread: what most specs deploy. */
export function cpuAdapterChoices(name: string): DeployChoices {
  return { name, image: { pick: /decision-adapter .*\bcpu\b/ }, compute: { kind: "cpu", threads: 1 } };
}

export class DeployPage {
  constructor(readonly page: Page) {}

  async goto(query = ""): Promise<void> {
    await this.page.goto(`/deploy${query}`);
    await expect(this.page.getByRole("heading", { name: "Deploy an endpoint", level: 1 })).toBeVisible();
  }

  async fill(choices: DeployChoices): Promise<void> {
    const page = this.page;
    await page.getByLabel("Endpoint name").fill(choices.name);
    if (choices.image && "pick" in choices.image) {
      const select = page.getByLabel("Deployable image");
      await expect(select.locator("option", { hasText: choices.image.pick })).toHaveCount(1);
      const value = await select.locator("option", { hasText: choices.image.pick }).getAttribute("value");
      await select.selectOption(value ?? "");
    } else if (choices.image) {
      await page.getByLabel("Image URI pinned by digest").fill(choices.image.uri);
    }
    if (choices.compute.kind === "cpu") {
      await page.getByLabel("Run on a CPU instance type").check();
      if (choices.compute.instanceType) {
        await page.getByRole("combobox", { name: "CPU instance type" }).selectOption(choices.compute.instanceType);
      }
      await page.getByLabel("Threads").fill(String(choices.compute.threads));
    } else {
      await page.getByLabel("Run on an ordered GPU instance pool").check();
      const wanted = choices.compute.pools;
      // Trim or grow the pool to the wanted length, then set each priority's type.
      while ((await page.getByRole("button", { name: /^Remove ml\./ }).count()) > wanted.length) {
        await page
          .getByRole("button", { name: /^Remove ml\./ })
          .last()
          .click();
      }
      for (const [index, type] of wanted.entries()) {
        await page.getByLabel(`Priority ${index + 1} instance type`).selectOption(type);
      }
    }
  }

  /** Invocation mode Asynchronous, with its concurrent requests per instance when given. */
  async chooseAsynchronous(perInstance?: number): Promise<void> {
    await this.page.getByLabel("Asynchronous: requests queue, answers land in S3").check();
    if (perInstance !== undefined) {
      await this.page.getByLabel("Concurrent requests per instance").fill(String(perInstance));
    }
  }

  async review(): Promise<void> {
    await this.page.getByRole("button", { name: "Review deployment" }).click();
    await expect(this.page.getByRole("heading", { name: "Review the deployment" })).toBeVisible();
  }

  async deploy(): Promise<void> {
    await this.page.getByRole("button", { name: "Deploy", exact: true }).click();
    await expect(this.page.getByRole("heading", { name: /^Deploying / })).toBeVisible();
  }

  async reviewAndDeploy(): Promise<void> {
    await this.review();
    await this.deploy();
  }
}

import type { Page } from "@playwright/test";

export class LoginPage {
  constructor(readonly page: Page) {}

  async signIn(name: string, password: string): Promise<void> {
    await this.page.goto("/login");
    await this.page.getByLabel("User name").fill(name);
    await this.page.getByLabel("Password").fill(password);
    await this.page.getByRole("button", { name: /sign in/i }).click();
    await this.page.waitForURL((url) => !url.pathname.startsWith("/login"));
  }
}

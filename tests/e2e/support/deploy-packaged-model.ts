import { expect, type Page } from "@playwright/test";
import { packageAndOpenDeploy } from "../pages/builds-page.ts";
import { cpuAdapterChoices, DeployPage } from "../pages/deploy-page.ts";
import { EndpointDetailPage } from "../pages/endpoint-detail-page.ts";
import { EndpointsPage } from "../pages/endpoints-page.ts";
import { type ModelPin, readModelPin } from "./e2e-settings.ts";

/**
 * Packages a model the stand-in Hub serves (the generated one unless told) and deploys it on a one-thread CPU
 * endpoint, until InService.
 */
export async function deployPackagedModel(
  page: Page,
  endpoint: string,
  pin: ModelPin & { label?: string } = readModelPin(),
): Promise<void> {
  await packageAndOpenDeploy(page, pin);
  const deploy = new DeployPage(page);
  await deploy.fill(cpuAdapterChoices(endpoint));
  await deploy.reviewAndDeploy();
  const endpoints = new EndpointsPage(page);
  await endpoints.goto();
  await endpoints.waitForStatus(endpoint, "InService");
}

/** Deletes an endpoint from its page and waits until the list no longer has it: later specs expect no endpoints. */
export async function deleteEndpoint(page: Page, endpoint: string): Promise<void> {
  const detail = new EndpointDetailPage(page);
  await detail.goto(endpoint);
  await detail.delete(endpoint);
  await expect(new EndpointsPage(page).row(endpoint)).toHaveCount(0, { timeout: 60_000 });
}

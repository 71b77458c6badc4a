import type { Page } from "@playwright/test";
import { packageAndOpenDeploy } from "../pages/builds-page.ts";
import { cpuAdapterChoices, DeployPage } from "../pages/deploy-page.ts";
import { EndpointsPage } from "../pages/endpoints-page.ts";
import { readModelPin } from "./e2e-settings.ts";

/** Packages the stand-in Hub's generated model and deploys it on a one-thread CPU endpoint, until InService. */
export async function deployPackagedModel(page: Page, endpoint: string): Promise<void> {
  await packageAndOpenDeploy(page, readModelPin());
  const deploy = new DeployPage(page);
  await deploy.fill(cpuAdapterChoices(endpoint));
  await deploy.reviewAndDeploy();
  const endpoints = new EndpointsPage(page);
  await endpoints.goto();
  await endpoints.waitForStatus(endpoint, "InService");
}

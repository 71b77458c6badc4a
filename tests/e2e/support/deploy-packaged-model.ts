import type { Page } from "@playwright/test";
import { BuildDetailPage, BuildsPage } from "../pages/builds-page.ts";
import { DeployPage } from "../pages/deploy-page.ts";
import { EndpointsPage } from "../pages/endpoints-page.ts";
import { readModelPin } from "./e2e-settings.ts";

/** Packages the stand-in Hub's generated model and deploys it on a one-thread CPU endpoint, until InService. */
export async function deployPackagedModel(page: Page, endpoint: string): Promise<void> {
  const builds = new BuildsPage(page);
  await builds.goto();
  await builds.packageCustomModel(readModelPin());
  const detail = new BuildDetailPage(page);
  await detail.waitForSuccess(180_000);
  await detail.deployThis();
  const deploy = new DeployPage(page);
  await deploy.fill({
    name: endpoint,
    image: { pick: /decision-adapter .*\bcpu\b/ },
    compute: { kind: "cpu", threads: 1 },
  });
  await deploy.reviewAndDeploy();
  const endpoints = new EndpointsPage(page);
  await endpoints.goto();
  await endpoints.waitForStatus(endpoint, "InService");
}

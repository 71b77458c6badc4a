import { describe, expect, it } from "vitest";
import { readConsoleConfig } from "./config.ts";
import { consoleSettings } from "./console-settings.ts";

const settingsOf = (env: Record<string, string>) => consoleSettings(readConsoleConfig(env));

describe("console settings", () => {
  it("reads CONSOLE_RESOURCE_PREFIX in lower case, as the stack deploys it and as SageMaker's ARNs carry names", () => {
    expect(settingsOf({ CONSOLE_RESOURCE_PREFIX: "DC-" }).resourceNamePrefix).toBe("dc-");
    expect(settingsOf({ CONSOLE_RESOURCE_PREFIX: " team-a- " }).resourceNamePrefix).toBe("team-a-");
    expect(settingsOf({ CONSOLE_RESOURCE_PREFIX: "" }).resourceNamePrefix).toBeNull();
    expect(settingsOf({}).resourceNamePrefix).toBeNull();
  });

  it("takes the stack's names, with the stack's own defaults", () => {
    expect(settingsOf({})).toMatchObject({
      mode: "aws",
      region: null,
      adapterRepository: "decision-adapter",
      modelPackageProject: "decision-console-model-package",
      imageBuildProject: "decision-console-image-build",
      artifactBucket: null,
    });
    expect(
      settingsOf({ CONSOLE_MODE: "local", AWS_DEFAULT_REGION: "eu-west-1", ECR_REPOSITORY: "mine" }),
    ).toMatchObject({ mode: "local", region: "eu-west-1", adapterRepository: "mine" });
  });
});

import { describe, expect, it } from "vitest";
import { deployRequestSchema } from "../../contract/endpoints/deploy.ts";
import { cpuDeploy, gpuPoolDeploy } from "../../tests/support/endpoints/fixtures.ts";
import { apiModeOf, containerEnvironment } from "./container-env.ts";

const adapterImage = `123456789012.dkr.ecr.us-east-1.amazonaws.com/decision-adapter@sha256:${"a".repeat(64)}`;

describe("a model's container environment", () => {
  it("carries no console variable (API mode, sha256 record), the mode reading back from what the container runs", () => {
    for (const request of [cpuDeploy(), gpuPoolDeploy({ apiMode: "chat" })]) {
      const parsed = deployRequestSchema.parse(request);
      expect(parsed.modelSha256).toMatch(/^[0-9a-f]{64}$/);
      const env = containerEnvironment(parsed);
      expect(Object.keys(env).filter((name) => name.startsWith("DECISION_CONSOLE_"))).toEqual([]);
      expect(apiModeOf(env, adapterImage)).toBe(parsed.apiMode);
    }
  });

  it("gives a decision model only variables the adapter documents", () => {
    const env = containerEnvironment(deployRequestSchema.parse(cpuDeploy({ limits: { maxInFlight: 2 }, parallel: 4 })));
    for (const name of Object.keys(env)) expect(name).toMatch(/^(ADAPTER_|SEMIF_)/);
  });

  it("still reads the mark an earlier console left on a model", () => {
    expect(apiModeOf({ DECISION_CONSOLE_API_MODE: "chat" }, adapterImage)).toBe("chat");
  });
});

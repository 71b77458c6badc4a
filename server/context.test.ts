import { describe, expect, it } from "vitest";
import { consoleSettings } from "./context.ts";

const env = (values: Record<string, string>) => values as NodeJS.ProcessEnv;

describe("console settings", () => {
  it("reads CONSOLE_RESOURCE_PREFIX in lower case, as the stack deploys it and as SageMaker's ARNs carry names", () => {
    expect(consoleSettings(env({ CONSOLE_RESOURCE_PREFIX: "DC-" })).resourceNamePrefix).toBe("dc-");
    expect(consoleSettings(env({ CONSOLE_RESOURCE_PREFIX: " team-a- " })).resourceNamePrefix).toBe("team-a-");
    expect(consoleSettings(env({ CONSOLE_RESOURCE_PREFIX: "" })).resourceNamePrefix).toBeNull();
    expect(consoleSettings(env({})).resourceNamePrefix).toBeNull();
  });
});

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STACK_POLICIES_PATH, serialise, synthesiseStackPolicies } from "./stack-policies.ts";

describe("the synthesised policies local mode enforces", () => {
  it("are what the stack synthesises today (run `npm run synth:local-policies` after changing the stack)", () => {
    const committed: unknown = JSON.parse(
      readFileSync(join(import.meta.dirname, "..", "..", STACK_POLICIES_PATH), "utf8"),
    );
    expect(committed).toEqual(JSON.parse(serialise(synthesiseStackPolicies())));
  }, 120_000);

  it("cover the console, every CodeBuild role and the execution role", () => {
    const policies = synthesiseStackPolicies();
    expect(Object.keys(policies.managedPolicies)).toContain(policies.consolePolicy);
    expect(Object.keys(policies.roles)).toContain(policies.executionRole);
    expect(policies.projects.map((p) => p.name).sort()).toEqual([
      "decision-console-console-image-build",
      "decision-console-image-build",
      "decision-console-model-package",
    ]);
    for (const project of policies.projects) expect(policies.roles[project.serviceRole]?.policies.length).toBe(1);
  }, 120_000);
});

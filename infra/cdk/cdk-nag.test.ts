import { Bucket } from "aws-cdk-lib/aws-s3";
import { describe, expect, it } from "vitest";
import { unacknowledgedNagFindings } from "../test-support/nag-findings.ts";
import { DecisionConsoleStack } from "./decision-console-stack.ts";

/** The stack with the AwsSolutions pack; returns the unacknowledged findings ("rule at construct"). */
function nagFindings(extend?: (stack: DecisionConsoleStack) => void): string[] {
  return unacknowledgedNagFindings((app) => {
    const stack = new DecisionConsoleStack(app, "DecisionConsole", { sageMakerNamePrefix: "dc-" });
    extend?.(stack);
  });
}

describe("cdk-nag AwsSolutions", () => {
  it("finds nothing in the stack that is not fixed or acknowledged with a written reason", () => {
    expect(nagFindings()).toEqual([]);
  }, 120_000);

  it("does report a finding the stack has not acknowledged (the check is live)", () => {
    const findings = nagFindings((stack) => new Bucket(stack, "Unlogged"));
    expect(findings.some((finding) => finding.startsWith("AwsSolutions-S1 at DecisionConsole/Unlogged"))).toBe(true);
  }, 120_000);
});

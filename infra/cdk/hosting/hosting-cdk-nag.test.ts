import { Bucket } from "aws-cdk-lib/aws-s3";
import { describe, expect, it } from "vitest";
import { unacknowledgedNagFindings } from "../../test-support/nag-findings.ts";
import { DecisionConsoleStack } from "../decision-console-stack.ts";
import type { SignInKind } from "./console-sign-in.ts";
import { DecisionConsoleHostingStack } from "./hosting-stack.ts";

/** Both stacks with the AwsSolutions pack; the unacknowledged findings ("rule at construct"). */
function nagFindings(signIn: SignInKind, extend?: (stack: DecisionConsoleHostingStack) => void): string[] {
  return unacknowledgedNagFindings((app) => {
    const consoleStack = new DecisionConsoleStack(app, "DecisionConsole", { sageMakerNamePrefix: "dc-" });
    extend?.(new DecisionConsoleHostingStack(app, "DecisionConsoleHosting", { consoleStack, signIn }));
  });
}

describe("cdk-nag AwsSolutions on the hosting stack", () => {
  it.each<SignInKind>(["cognito", "issuer"])(
    "finds nothing that is not fixed or acknowledged with a written reason (sign-in: %s)",
    (signIn) => {
      expect(nagFindings(signIn)).toEqual([]);
    },
    120_000,
  );

  it("does report a finding the stack has not acknowledged (the check is live)", () => {
    const findings = nagFindings("cognito", (stack) => new Bucket(stack, "Unlogged"));
    expect(findings.some((finding) => finding.startsWith("AwsSolutions-S1 at DecisionConsoleHosting/Unlogged"))).toBe(
      true,
    );
  }, 120_000);
});

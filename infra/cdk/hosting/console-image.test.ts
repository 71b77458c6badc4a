import { CfnParameter, Stack } from "aws-cdk-lib";
import { describe, expect, it } from "vitest";
import { evaluateCfn } from "../../test-support/cfn-evaluate.ts";
import { CONSOLE_IMAGE_URI_PATTERN, imageRepositoryArn } from "./console-image.ts";

const digest = `sha256:${"0123456789abcdef".repeat(4)}`;
const pattern = new RegExp(CONSOLE_IMAGE_URI_PATTERN);

describe("the ConsoleImageUri parameter", () => {
  it.each([
    `123456789012.dkr.ecr.eu-west-1.amazonaws.com/decision-console@${digest}`,
    `123456789012.dkr.ecr.us-east-1.amazonaws.com/team/decision.console_v2@${digest}`,
  ])("accepts an ECR image pinned by digest: %s", (uri) => {
    expect(pattern.test(uri)).toBe(true);
  });

  it.each([
    ["a tag", "123456789012.dkr.ecr.eu-west-1.amazonaws.com/decision-console:latest"],
    ["a tag and a digest", `123456789012.dkr.ecr.eu-west-1.amazonaws.com/decision-console:1.0@${digest}`],
    ["a short digest", "123456789012.dkr.ecr.eu-west-1.amazonaws.com/decision-console@sha256:0123"],
    ["another registry", `docker.io/library/node@${digest}`],
    ["an upper-case repository", `123456789012.dkr.ecr.eu-west-1.amazonaws.com/Console@${digest}`],
  ])("refuses %s", (_, uri) => {
    expect(pattern.test(uri)).toBe(false);
  });

  it("names the repository it is pulled from, so the execution role may pull from that one only", () => {
    const stack = new Stack();
    const uri = new CfnParameter(stack, "ConsoleImageUri", { type: "String" });
    const arn = stack.resolve(imageRepositoryArn(uri.valueAsString));
    const refs = { "AWS::Partition": "aws" };
    expect(
      evaluateCfn(arn, {
        ...refs,
        ConsoleImageUri: `123456789012.dkr.ecr.eu-west-1.amazonaws.com/team/console@${digest}`,
      }),
    ).toBe("arn:aws:ecr:eu-west-1:123456789012:repository/team/console");
    expect(
      evaluateCfn(arn, {
        ...refs,
        ConsoleImageUri: `210987654321.dkr.ecr.us-east-2.amazonaws.com/decision-console@${digest}`,
      }),
    ).toBe("arn:aws:ecr:us-east-2:210987654321:repository/decision-console");
  });
});

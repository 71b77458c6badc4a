import { App } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { describe, expect, it } from "vitest";
import { LLAMA_CPP_DLC_ACCOUNTS } from "../../contract/stack/llama-cpp-dlc.ts";
import { REGIONS_WITHOUT_CODEBUILD } from "./codebuild-regions.ts";
import { DecisionConsoleStack } from "./decision-console-stack.ts";

const stackIn = (region?: string) =>
  new DecisionConsoleStack(new App(), "DecisionConsole", region ? { env: { account: "123456789012", region } } : {});

describe("Regions without CodeBuild", () => {
  it.each(["ap-east-2", "ca-west-1", "mx-central-1"])(
    "refuses to synthesise the stack for %s, saying why",
    (region) => {
      expect(() => stackIn(region)).toThrow(
        new RegExp(`${region} has no AWS CodeBuild \\(AWS::CodeBuild::Project\\).*Deploy the stack in a Region`),
      );
    },
  );

  it("builds the stack for a Region that has CodeBuild", () => {
    expect(() => stackIn("us-east-1")).not.toThrow();
  });

  it("guards an environment-agnostic stack with a rule CloudFormation checks before it creates anything", {
    timeout: 120_000,
  }, () => {
    const rules = Template.fromStack(stackIn()).toJSON().Rules ?? {};
    expect(rules.CodeBuildAvailableInRegion).toEqual({
      Assertions: [
        {
          Assert: { "Fn::Not": [{ "Fn::Contains": [[...REGIONS_WITHOUT_CODEBUILD], { Ref: "AWS::Region" }] }] },
          AssertDescription: expect.stringContaining("has no AWS CodeBuild"),
        },
      ],
    });
  });

  it("names only Regions the stack offers the DLC in", () => {
    for (const region of REGIONS_WITHOUT_CODEBUILD) expect(LLAMA_CPP_DLC_ACCOUNTS).toHaveProperty(region);
  });
});

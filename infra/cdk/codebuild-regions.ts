import { Aws, CfnRule, Fn, Stack, Token } from "aws-cdk-lib";
import type { Construct } from "constructs";

/**
 * Regions the stack offers the llama.cpp DLC in (llama-cpp-dlc.ts) where CloudFormation has no
 * `AWS::CodeBuild::Project`, so the stack's build projects cannot be created there: the per-Region resource
 * specification cfn-lint ships (PyPI `cfn-lint`, the version pinned in requirements/tests.txt, `cfnlint/data/schemas/providers/<region>.py`, the types
 * CloudFormation serves in each Region; cfn-lint's E3006 "Resource type ... does not exist in ...") lists the type
 * for every other DLC Region and not for these.
 */
export const REGIONS_WITHOUT_CODEBUILD = ["ap-east-2", "ca-west-1", "mx-central-1"] as const;

const why = (region: string) =>
  `${region} has no AWS CodeBuild (AWS::CodeBuild::Project), which builds the console's models and adapter images. ` +
  "Deploy the stack in a Region that has CodeBuild.";

/**
 * Refuses a stack whose Region has no CodeBuild: synthesis for an explicit Region throws; an environment-agnostic
 * stack gets a template rule, which CloudFormation evaluates before it creates or changes any resource, with the
 * same message.
 */
export function requireCodeBuildRegion(scope: Construct): void {
  const { region } = Stack.of(scope);
  if (!Token.isUnresolved(region)) {
    if ((REGIONS_WITHOUT_CODEBUILD as readonly string[]).includes(region)) throw new Error(why(region));
    return;
  }
  new CfnRule(scope, "CodeBuildAvailableInRegion", {
    assertions: [
      {
        assert: Fn.conditionNot(Fn.conditionContains([...REGIONS_WITHOUT_CODEBUILD], Aws.REGION)),
        assertDescription: why(`This Region (${REGIONS_WITHOUT_CODEBUILD.join(", ")})`),
      },
    ],
  });
}

import { Aws, CfnRule, Fn } from "aws-cdk-lib";
import type { Construct } from "constructs";

/**
 * Regions the main stack deploys in where CloudFormation has no Amazon Cognito user pools (cfn-lint's per-Region
 * resource data, as for REGIONS_WITHOUT_CODEBUILD: the cfn-lint test checks this list against it).
 */
export const REGIONS_WITHOUT_COGNITO = ["cn-north-1", "cn-northwest-1"] as const;

/** A template rule, checked before CloudFormation creates anything: there, sign in through another issuer. */
export function requireCognitoRegion(scope: Construct): void {
  new CfnRule(scope, "CognitoAvailableInRegion", {
    assertions: [
      {
        assert: Fn.conditionNot(Fn.conditionContains([...REGIONS_WITHOUT_COGNITO], Aws.REGION)),
        assertDescription: `This Region (${REGIONS_WITHOUT_COGNITO.join(", ")}) has no Amazon Cognito user pools: synthesise with -c signIn=issuer and give the OidcIssuer parameters.`,
      },
    ],
  });
}

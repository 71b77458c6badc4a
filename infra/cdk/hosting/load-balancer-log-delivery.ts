import { Aws, CfnCondition, CfnMapping, Fn, Stack } from "aws-cdk-lib";
import { PolicyStatement, PrincipalBase, PrincipalPolicyFragment } from "aws-cdk-lib/aws-iam";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import { RegionInfo } from "aws-cdk-lib/region-info";

const NO_ACCOUNT = "none";
const LOG_DELIVERY_SERVICE = "logdelivery.elasticloadbalancing.amazonaws.com";

/**
 * Who writes an Application Load Balancer's access logs: in Regions opened before August 2022, Elastic Load
 * Balancing's own account there; in later ones, its log delivery service. The stack is Region-agnostic, so the
 * choice is made in CloudFormation from a mapping of every Region aws-cdk-lib knows (a Region it does not know
 * fails the deployment on the mapping, naming the Region).
 */
class LoadBalancerLogWriter extends PrincipalBase {
  constructor(
    private readonly byAccount: CfnCondition,
    private readonly account: string,
  ) {
    super();
  }

  get policyFragment(): PrincipalPolicyFragment {
    const condition = this.byAccount.logicalId;
    const accountArn = Fn.join("", ["arn:", Aws.PARTITION, ":iam::", this.account, ":root"]);
    return new PrincipalPolicyFragment({
      AWS: [Fn.conditionIf(condition, accountArn, Aws.NO_VALUE).toString()],
      Service: [Fn.conditionIf(condition, Aws.NO_VALUE, LOG_DELIVERY_SERVICE).toString()],
    });
  }

  dedupeString(): string | undefined {
    return undefined;
  }
}

/** Lets the load balancer write its access logs under `<prefix>/AWSLogs/<account>/` and nothing else. */
export function allowLoadBalancerAccessLogs(bucket: IBucket, prefix: string): void {
  const stack = Stack.of(bucket);
  const accounts = new CfnMapping(stack, "LoadBalancerLogAccounts", {
    mapping: Object.fromEntries(
      RegionInfo.regions.map((region) => [region.name, { account: region.elbv2Account ?? NO_ACCOUNT }]),
    ),
  });
  const account = accounts.findInMap(Aws.REGION, "account");
  const byAccount = new CfnCondition(stack, "LoadBalancerLogsWrittenByAccount", {
    expression: Fn.conditionNot(Fn.conditionEquals(account, NO_ACCOUNT)),
  });
  bucket.addToResourcePolicy(
    new PolicyStatement({
      sid: "LoadBalancerAccessLogs",
      actions: ["s3:PutObject"],
      principals: [new LoadBalancerLogWriter(byAccount, account)],
      resources: [bucket.arnForObjects(`${prefix}/AWSLogs/${Aws.ACCOUNT_ID}/*`)],
    }),
  );
}

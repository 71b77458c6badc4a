import type { Bucket } from "aws-cdk-lib/aws-s3";
import type { Construct } from "constructs";
import { createLogTargetBucket } from "../log-target-bucket.ts";

export const LOG_PREFIXES = { loadBalancer: "load-balancer", flowLogs: "vpc-flow-logs/" } as const;

/** The load balancer's access logs and the VPC's flow logs, kept 90 days. */
export function createHostingLogBucket(scope: Construct): Bucket {
  return createLogTargetBucket(scope, "HostingLogs", {
    expiryRuleId: "expire-logs",
    noAccessLogReason:
      "This bucket holds the load balancer's and the VPC's logs; logging its own requests into itself would loop.",
  });
}

import { FlowLogDestination, FlowLogTrafficType, SubnetType, Vpc } from "aws-cdk-lib/aws-ec2";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import type { Construct } from "constructs";
import { LOG_PREFIXES } from "./log-bucket.ts";

export interface NetworkProps {
  /** One keeps the idle cost down; tasks in the other zone then reach AWS through it (and lose egress with it). */
  natGateways: number;
  logBucket: IBucket;
}

/**
 * Two Availability Zones: public subnets for the load balancer, private ones with egress for the console's tasks
 * (they call AWS APIs and the OpenID Connect issuer), isolated ones for the database. Every flow is logged to S3.
 */
export function createNetwork(scope: Construct, props: NetworkProps): Vpc {
  const vpc = new Vpc(scope, "Network", {
    maxAzs: 2,
    natGateways: props.natGateways,
    // Restricting the default security group takes a Lambda-backed custom resource; nothing here uses that group.
    restrictDefaultSecurityGroup: false,
    subnetConfiguration: [
      { name: "LoadBalancer", subnetType: SubnetType.PUBLIC, cidrMask: 24, mapPublicIpOnLaunch: false },
      { name: "Console", subnetType: SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 24 },
      { name: "Database", subnetType: SubnetType.PRIVATE_ISOLATED, cidrMask: 24 },
    ],
  });
  vpc.addFlowLog("FlowLogs", {
    destination: FlowLogDestination.toS3(props.logBucket, LOG_PREFIXES.flowLogs),
    trafficType: FlowLogTrafficType.ALL,
  });
  return vpc;
}

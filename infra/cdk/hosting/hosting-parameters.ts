import { CfnParameter } from "aws-cdk-lib";
import type { Construct } from "constructs";
import { CONSOLE_IMAGE_URI_PATTERN } from "./console-image.ts";

/** What a team chooses at deploy time (`cdk deploy --parameters Name=value`); infra/README.md explains each. */
export interface HostingParameters {
  consoleImageUri: CfnParameter;
  domainName: CfnParameter;
  certificateArn: CfnParameter;
  desiredCount: CfnParameter;
  ingressCidr: CfnParameter;
  loadBalancerDeletionProtection: CfnParameter;
  databaseMultiAz: CfnParameter;
}

const HOST_NAME = "^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$";
const IPV4_CIDR =
  "^(?:(?:25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])/(?:3[0-2]|[12]?[0-9])$";

export function createHostingParameters(scope: Construct): HostingParameters {
  const parameter = (id: string, props: ConstructorParameters<typeof CfnParameter>[2]) =>
    new CfnParameter(scope, id, props);
  const flag = (id: string, fallback: "true" | "false", description: string) =>
    parameter(id, { type: "String", allowedValues: ["true", "false"], default: fallback, description });
  return {
    consoleImageUri: parameter("ConsoleImageUri", {
      type: "String",
      allowedPattern: CONSOLE_IMAGE_URI_PATTERN,
      constraintDescription:
        "an ECR image pinned by digest: <account>.dkr.ecr.<region>.amazonaws.com/<repository>@sha256:<64 hex>",
      description: "The console image, by digest (the console image build's IMAGE_URI)",
    }),
    domainName: parameter("DomainName", {
      type: "String",
      allowedPattern: HOST_NAME,
      constraintDescription: "a lower-case host name such as console.example.com",
      description: "The console's host name; a DNS CNAME points it at the load balancer",
    }),
    certificateArn: parameter("CertificateArn", {
      type: "String",
      allowedPattern: "^arn:aws[a-z-]*:acm:[a-z0-9-]+:[0-9]{12}:certificate/[0-9a-f-]+$",
      constraintDescription: "an ACM certificate ARN in this stack's Region",
      description: "An issued ACM certificate for DomainName, in this stack's Region",
    }),
    desiredCount: parameter("DesiredCount", {
      type: "Number",
      default: 2,
      minValue: 0,
      maxValue: 10,
      description:
        "Console tasks kept running: two spread over two Availability Zones survive the loss of one; 0 deploys everything but the console",
    }),
    ingressCidr: parameter("IngressCidr", {
      type: "String",
      default: "0.0.0.0/0",
      allowedPattern: IPV4_CIDR,
      constraintDescription: "an IPv4 CIDR range such as 203.0.113.0/24",
      description: "Who may reach the load balancer: the internet, or an office or VPN range",
    }),
    loadBalancerDeletionProtection: flag(
      "LoadBalancerDeletionProtection",
      "true",
      "Refuse to delete the load balancer until this is false",
    ),
    databaseMultiAz: flag(
      "DatabaseMultiAz",
      "false",
      "A standby database in a second Availability Zone (doubles the database's cost)",
    ),
  };
}

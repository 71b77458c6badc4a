import { type CfnResource, Duration, Validations } from "aws-cdk-lib";
import { type IVpc, Peer, Port, SecurityGroup, SubnetType } from "aws-cdk-lib/aws-ec2";
import {
  type ApplicationListener,
  ApplicationLoadBalancer,
  ApplicationProtocol,
  ListenerAction,
  ListenerCertificate,
  SslPolicy,
} from "aws-cdk-lib/aws-elasticloadbalancingv2";
import type { Bucket } from "aws-cdk-lib/aws-s3";
import type { Construct } from "constructs";
import { LONGEST_INVOCATION_SECONDS } from "../../../contract/invoke/invocation-budget.ts";
import { allowLoadBalancerAccessLogs } from "./load-balancer-log-delivery.ts";
import { LOG_PREFIXES } from "./log-bucket.ts";

/**
 * How long, in seconds, the load balancer lets a connection sit with no data before it closes it ("The connection
 * idle timeout is the period of time an existing client or target connection can remain inactive, with no data being
 * sent or received, before the load balancer closes the connection", the Application Load Balancers guide; its
 * default is 60 seconds). A synchronous invocation route sends nothing until it answers, so this is the next whole
 * ten seconds above the longest it may take (LONGEST_INVOCATION_SECONDS), the rest for the attempts' own round trips:
 * the client gets the console's answer, its JSON error included, never the load balancer's 504 page.
 */
export const LOAD_BALANCER_IDLE_TIMEOUT_SECONDS = (Math.floor(LONGEST_INVOCATION_SECONDS / 10) + 1) * 10;

export interface LoadBalancerProps {
  vpc: IVpc;
  certificateArn: string;
  /** Who may connect (the IngressCidr parameter). */
  ingressCidr: string;
  /** The LoadBalancerDeletionProtection parameter ("true" or "false"). */
  deletionProtection: string;
  logBucket: Bucket;
}

export interface ConsoleLoadBalancer {
  loadBalancer: ApplicationLoadBalancer;
  https: ApplicationListener;
}

/**
 * An internet-facing Application Load Balancer: HTTPS only (TLS 1.3 and 1.2 with forward-secret AEAD ciphers and a
 * post-quantum key exchange), port 80 answering with a redirect, headers that are not valid HTTP dropped before they
 * reach the console, idle connections kept past the longest invocation, and every request logged to S3.
 */
export function createLoadBalancer(scope: Construct, props: LoadBalancerProps): ConsoleLoadBalancer {
  const securityGroup = new SecurityGroup(scope, "LoadBalancerSecurityGroup", {
    vpc: props.vpc,
    description: "Decision Console load balancer: HTTPS and the HTTP redirect from IngressCidr",
    allowAllOutbound: false,
  });
  securityGroup.addIngressRule(Peer.ipv4(props.ingressCidr), Port.tcp(443), "HTTPS");
  securityGroup.addIngressRule(Peer.ipv4(props.ingressCidr), Port.tcp(80), "HTTP, redirected to HTTPS");

  const loadBalancer = new ApplicationLoadBalancer(scope, "LoadBalancer", {
    vpc: props.vpc,
    vpcSubnets: { subnetType: SubnetType.PUBLIC },
    internetFacing: true,
    securityGroup,
    dropInvalidHeaderFields: true,
    idleTimeout: Duration.seconds(LOAD_BALANCER_IDLE_TIMEOUT_SECONDS),
  });
  loadBalancer.setAttribute("deletion_protection.enabled", props.deletionProtection);
  // logAccessLogs() needs the Region at synthesis; this stack learns it at deployment.
  allowLoadBalancerAccessLogs(props.logBucket, LOG_PREFIXES.loadBalancer);
  loadBalancer.setAttribute("access_logs.s3.enabled", "true");
  loadBalancer.setAttribute("access_logs.s3.bucket", props.logBucket.bucketName);
  loadBalancer.setAttribute("access_logs.s3.prefix", LOG_PREFIXES.loadBalancer);
  (loadBalancer.node.defaultChild as CfnResource).addResourceDependency(
    props.logBucket.policy!.node.defaultChild as CfnResource,
  );

  loadBalancer.addListener("Http", {
    port: 80,
    protocol: ApplicationProtocol.HTTP,
    open: false,
    defaultAction: ListenerAction.redirect({ protocol: "HTTPS", port: "443", permanent: true }),
  });
  const https = loadBalancer.addListener("Https", {
    port: 443,
    protocol: ApplicationProtocol.HTTPS,
    open: false,
    certificates: [ListenerCertificate.fromArn(props.certificateArn)],
    sslPolicy: SslPolicy.TLS13_12_RES_PQ,
  });
  Validations.of(securityGroup).acknowledge({
    id: "AwsSolutions-EC23",
    reason:
      "The console is for people on the internet by default (sign-in guards it); IngressCidr narrows it to an office or VPN range",
  });
  return { loadBalancer, https };
}

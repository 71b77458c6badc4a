import { CfnOutput, Stack, type StackProps } from "aws-cdk-lib";
import { Secret as EcsSecret } from "aws-cdk-lib/aws-ecs";
import type { Construct } from "constructs";
import type { DecisionConsoleStack } from "../decision-console-stack.ts";
import { createCognitoSignIn } from "./cognito-sign-in.ts";
import { createConsoleService } from "./console-service.ts";
import { consoleSettings } from "./console-settings.ts";
import type { SignInKind } from "./console-sign-in.ts";
import { createDatabase } from "./database.ts";
import { createHostingParameters } from "./hosting-parameters.ts";
import { issuerSignIn } from "./issuer-sign-in.ts";
import { createLoadBalancer } from "./load-balancer.ts";
import { createHostingLogBucket } from "./log-bucket.ts";
import { createNetwork } from "./network.ts";
import { createSessionSecret } from "./session-secret.ts";

export interface DecisionConsoleHostingStackProps extends StackProps {
  /** The stack whose console policy, bucket, repository and projects the hosted console uses. */
  consoleStack: DecisionConsoleStack;
  /** 1 (default) or 2: one per Availability Zone keeps egress up when a zone fails, at a second gateway's cost. */
  natGateways?: number;
  /** Default `cognito`. */
  signIn?: SignInKind;
}

/**
 * The console for a team: Fargate tasks behind an HTTPS load balancer, sign-in through OpenID Connect, secrets in
 * Secrets Manager, logs in CloudWatch, and a PostgreSQL database (infra/README.md, "Hosting the console for a team").
 */
export class DecisionConsoleHostingStack extends Stack {
  constructor(scope: Construct, id: string, props: DecisionConsoleHostingStackProps) {
    super(scope, id, props);
    const natGateways = props.natGateways ?? 1;
    if (natGateways !== 1 && natGateways !== 2) throw new Error(`natGateways must be 1 or 2, not ${natGateways}`);

    const parameters = createHostingParameters(this);
    const publicOrigin = `https://${parameters.domainName.valueAsString}`;
    const logBucket = createHostingLogBucket(this);
    const vpc = createNetwork(this, { natGateways, logBucket });
    const { loadBalancer, https } = createLoadBalancer(this, {
      vpc,
      certificateArn: parameters.certificateArn.valueAsString,
      ingressCidr: parameters.ingressCidr.valueAsString,
      deletionProtection: parameters.loadBalancerDeletionProtection.valueAsString,
      logBucket,
    });
    const signIn = props.signIn === "issuer" ? issuerSignIn(this) : createCognitoSignIn(this, publicOrigin);
    const database = createDatabase(this, { vpc, multiAz: parameters.databaseMultiAz.valueAsString });

    const sessionSecret = createSessionSecret(this);
    const { service, logGroup } = createConsoleService(this, {
      vpc,
      imageUri: parameters.consoleImageUri.valueAsString,
      desiredCount: parameters.desiredCount.valueAsNumber,
      consolePolicy: props.consoleStack.consolePolicy,
      environment: consoleSettings({
        consoleStack: props.consoleStack,
        publicOrigin,
        proxyCidrs: vpc.publicSubnets.map((subnet) => subnet.ipv4CidrBlock),
        signIn,
        databaseUrl: database.url,
      }),
      secrets: {
        CONSOLE_SESSION_SECRET: EcsSecret.fromSecretsManager(sessionSecret),
        CONSOLE_OIDC_CLIENT_SECRET: EcsSecret.fromSecretsManager(signIn.clientSecret),
        PGPASSWORD: EcsSecret.fromSecretsManager(database.secret, "password"),
      },
      https,
    });
    database.instance.connections.allowDefaultPortFrom(service, "The console's tasks");

    const output = (id: string, value: string, description: string) => new CfnOutput(this, id, { value, description });
    output("ConsoleUrl", publicOrigin, "Where the team signs in");
    output("LoadBalancerDnsName", loadBalancer.loadBalancerDnsName, "Point DomainName's CNAME here");
    output("ClusterName", service.cluster.clusterName, "aws ecs ... --cluster");
    output("ServiceName", service.serviceName, "aws ecs update-service --service");
    output("LogGroupName", logGroup.logGroupName, "The console's logs");
    output("SessionSecretArn", sessionSecret.secretArn, "CONSOLE_SESSION_SECRET");
    output("DatabaseSecretArn", database.secret.secretArn, "The database's credentials (PGPASSWORD)");
  }
}

import { Duration, RemovalPolicy, Validations } from "aws-cdk-lib";
import { type IVpc, SecurityGroup, SubnetType } from "aws-cdk-lib/aws-ec2";
import {
  type CfnService,
  Cluster,
  ContainerImage,
  ContainerInsights,
  CpuArchitecture,
  type Secret as EcsSecret,
  FargateService,
  FargateTaskDefinition,
  LogDrivers,
  OperatingSystemFamily,
  PropagatedTagSource,
} from "aws-cdk-lib/aws-ecs";
import { type ApplicationListener, ApplicationProtocol } from "aws-cdk-lib/aws-elasticloadbalancingv2";
import type { IManagedPolicy } from "aws-cdk-lib/aws-iam";
import { LogGroup, RetentionDays } from "aws-cdk-lib/aws-logs";
import type { Construct } from "constructs";
import { consoleApi } from "../../../contract/api.ts";
import { CONSOLE_DATA_DIR, CONSOLE_PORT } from "./console-settings.ts";
import { createConsoleExecutionRole, createConsoleTaskRole } from "./console-task-roles.ts";

export interface ConsoleServiceProps {
  vpc: IVpc;
  imageUri: string;
  desiredCount: number;
  consolePolicy: IManagedPolicy;
  environment: Record<string, string>;
  secrets: Record<string, EcsSecret>;
  https: ApplicationListener;
}

export interface ConsoleService {
  service: FargateService;
  logGroup: LogGroup;
}

/**
 * The console on Fargate behind the HTTPS listener: tasks in the private subnets, reachable only from the load
 * balancer, replaced one healthy task at a time (100% stay up while a new deployment starts, and the circuit breaker
 * rolls back one whose tasks never pass /api/health). The image's root filesystem is read-only; the console writes
 * only CONSOLE_DATA_DIR and temporary files, each a task volume.
 */
export function createConsoleService(scope: Construct, props: ConsoleServiceProps): ConsoleService {
  const cluster = new Cluster(scope, "Cluster", { vpc: props.vpc, containerInsightsV2: ContainerInsights.ENABLED });
  const logGroup = new LogGroup(scope, "ConsoleLogs", {
    retention: RetentionDays.THREE_MONTHS,
    removalPolicy: RemovalPolicy.RETAIN,
  });
  const taskDefinition = new FargateTaskDefinition(scope, "ConsoleTask", {
    cpu: 512,
    memoryLimitMiB: 1024,
    runtimePlatform: {
      cpuArchitecture: CpuArchitecture.X86_64,
      operatingSystemFamily: OperatingSystemFamily.LINUX,
    },
    taskRole: createConsoleTaskRole(scope, props.consolePolicy),
    executionRole: createConsoleExecutionRole(scope, props.imageUri),
  });
  const container = taskDefinition.addContainer("Console", {
    image: ContainerImage.fromRegistry(props.imageUri),
    portMappings: [{ containerPort: CONSOLE_PORT }],
    environment: props.environment,
    secrets: props.secrets,
    logging: LogDrivers.awsLogs({ logGroup, streamPrefix: "console" }),
    readonlyRootFilesystem: true,
    // The image's node user, which owns CONSOLE_DATA_DIR there.
    user: "1000:1000",
  });
  for (const [name, containerPath] of [
    ["console-data", CONSOLE_DATA_DIR],
    ["tmp", "/tmp"],
  ] as const) {
    taskDefinition.addVolume({ name });
    container.addMountPoints({ sourceVolume: name, containerPath, readOnly: false });
  }

  const securityGroup = new SecurityGroup(scope, "ConsoleSecurityGroup", {
    vpc: props.vpc,
    description: "Decision Console tasks: from the load balancer; out to AWS APIs and the sign-in issuer",
    allowAllOutbound: true,
  });
  const service = new FargateService(scope, "ConsoleService", {
    cluster,
    taskDefinition,
    desiredCount: props.desiredCount,
    minHealthyPercent: 100,
    maxHealthyPercent: 200,
    circuitBreaker: { enable: true, rollback: true },
    vpcSubnets: { subnetType: SubnetType.PRIVATE_WITH_EGRESS },
    assignPublicIp: false,
    securityGroups: [securityGroup],
    healthCheckGracePeriod: Duration.seconds(60),
    propagateTags: PropagatedTagSource.SERVICE,
    enableECSManagedTags: true,
  });
  props.https.addTargets("Console", {
    port: CONSOLE_PORT,
    protocol: ApplicationProtocol.HTTP,
    targets: [service],
    deregistrationDelay: Duration.seconds(30),
    healthCheck: {
      path: consoleApi.health.path,
      healthyHttpCodes: "200",
      interval: Duration.seconds(15),
      timeout: Duration.seconds(5),
      healthyThresholdCount: 2,
      unhealthyThresholdCount: 3,
    },
  });
  Validations.of(taskDefinition).acknowledge({
    id: "AwsSolutions-ECS2",
    reason:
      "The environment holds only settings that are not secret (names, URLs, the issuer); the session key, the client secret and the database password are ECS secrets read from Secrets Manager",
  });
  // CDK makes the service depend on the listener and its target group; the target group is also a Ref (cfn-lint W3005).
  (service.node.defaultChild as CfnService).addMetadata("cfn-lint", { config: { ignore_checks: ["W3005"] } });
  return { service, logGroup };
}

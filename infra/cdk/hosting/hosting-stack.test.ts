import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { App } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { LONGEST_INVOCATION_SECONDS } from "../../../contract/invoke/invocation-budget.ts";
import { evaluateCfn } from "../../test-support/cfn-evaluate.ts";
import { containerStart, parseDockerfile } from "../../test-support/dockerfile.ts";
import { flattenReference } from "../cfn-reference.ts";
import { DecisionConsoleStack } from "../decision-console-stack.ts";
import type { SignInKind } from "./console-sign-in.ts";
import { DecisionConsoleHostingStack } from "./hosting-stack.ts";

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;
interface Statement {
  Sid?: string;
  Action: string | string[];
  Resource: unknown;
}
interface ContainerDefinition {
  Environment: { Name: string; Value: unknown }[];
  Secrets: { Name: string; ValueFrom: unknown }[];
  [property: string]: unknown;
}

function synth(signIn: SignInKind): { template: Template; resources: Resources; consoleTemplate: Template } {
  const app = new App();
  const consoleStack = new DecisionConsoleStack(app, "DecisionConsole", { sageMakerNamePrefix: "dc-" });
  const hosting = new DecisionConsoleHostingStack(app, "DecisionConsoleHosting", { consoleStack, signIn });
  const template = Template.fromStack(hosting);
  return {
    template,
    resources: template.toJSON().Resources as Resources,
    consoleTemplate: Template.fromStack(consoleStack),
  };
}

const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const idOf = (resources: Resources, type: string, start: string): string => {
  const ids = Object.keys(resources).filter((id) => resources[id]!.Type === type && id.startsWith(start));
  expect(ids).toHaveLength(1);
  return ids[0]!;
};

let template: Template;
let resources: Resources;
let consoleTemplate: Template;
let container: ContainerDefinition;
beforeAll(() => {
  ({ template, resources, consoleTemplate } = synth("cognito"));
  const task = Object.values(resources).find((r) => r.Type === "AWS::ECS::TaskDefinition")!;
  container = (task.Properties.ContainerDefinitions as ContainerDefinition[])[0]!;
});

const environment = () => Object.fromEntries(container.Environment.map((e) => [e.Name, flattenReference(e.Value)]));
/** The load balancer's idle timeout in seconds; unset, ELB's "By default, ELB sets the idle timeout ... to 60 seconds". */
const loadBalancerIdleSeconds = () => {
  const lb = Object.values(resources).find((r) => r.Type === "AWS::ElasticLoadBalancingV2::LoadBalancer")!;
  const attributes = lb.Properties.LoadBalancerAttributes as { Key: string; Value: string }[];
  return Number(attributes.find((attribute) => attribute.Key === "idle_timeout.timeout_seconds")?.Value ?? 60);
};

describe("the console service", () => {
  it("keeps two tasks by default, and none when asked (everything else deployed)", () => {
    template.hasParameter("DesiredCount", { Type: "Number", Default: 2, MinValue: 0 });
  });

  it("rolls a deployment forward only while every task stays healthy, and back when the new ones never are", () => {
    template.hasResourceProperties("AWS::ECS::Service", {
      LaunchType: "FARGATE",
      DesiredCount: { Ref: "DesiredCount" },
      DeploymentConfiguration: {
        DeploymentCircuitBreaker: { Enable: true, Rollback: true },
        MinimumHealthyPercent: 100,
        MaximumPercent: 200,
      },
      NetworkConfiguration: { AwsvpcConfiguration: { AssignPublicIp: "DISABLED" } },
    });
  });

  it("runs its tasks in the private subnets with egress", () => {
    const service = Object.values(resources).find((r) => r.Type === "AWS::ECS::Service")!;
    const subnets = (service.Properties.NetworkConfiguration as { AwsvpcConfiguration: { Subnets: unknown[] } })
      .AwsvpcConfiguration.Subnets;
    expect(subnets.map(flattenReference).sort()).toEqual([
      `<${idOf(resources, "AWS::EC2::Subnet", "NetworkConsoleSubnet1")}>`,
      `<${idOf(resources, "AWS::EC2::Subnet", "NetworkConsoleSubnet2")}>`,
    ]);
  });

  it("checks /api/health on port 3000 through the load balancer", () => {
    template.hasResourceProperties("AWS::ElasticLoadBalancingV2::TargetGroup", {
      Port: 3000,
      Protocol: "HTTP",
      TargetType: "ip",
      HealthCheckPath: "/api/health",
      Matcher: { HttpCode: "200" },
    });
    expect(container.PortMappings).toEqual([{ ContainerPort: 3000, Protocol: "tcp" }]);
    expect(environment()).toMatchObject({ HOST: "0.0.0.0", PORT: "3000" });
  });

  it("runs the digest-pinned image as a non-root user on a read-only root filesystem, writing only task volumes", () => {
    expect(container.Image).toEqual({ Ref: "ConsoleImageUri" });
    expect(container.ReadonlyRootFilesystem).toBe(true);
    expect(container.User).toMatch(/^[1-9][0-9]*:[1-9][0-9]*$/);
    expect(container.MountPoints).toEqual([
      { ContainerPath: "/var/lib/decision-console", ReadOnly: false, SourceVolume: "console-data" },
      { ContainerPath: "/tmp", ReadOnly: false, SourceVolume: "tmp" },
    ]);
    expect(environment().CONSOLE_DATA_DIR).toBe("/var/lib/decision-console");
    template.hasResourceProperties("AWS::ECS::TaskDefinition", {
      Volumes: [{ Name: "console-data" }, { Name: "tmp" }],
    });
  });

  it("mounts task volumes only where the console image declares a VOLUME, so each comes with the image's owner and mode", () => {
    // Any other task volume is root's and 0755 (infra/test-support/ecs-bind-mount.ts): the image's user cannot write it.
    const image = containerStart(
      parseDockerfile(fileURLToPath(new URL("../../docker/Dockerfile.console", import.meta.url))),
    );
    const mounted = (container.MountPoints as { ContainerPath: string }[]).map((mount) => mount.ContainerPath);
    expect(mounted.filter((path) => !image.volumes.includes(path))).toEqual([]);
  });

  it("logs to its own CloudWatch log group, kept 90 days, with Container Insights on the cluster", () => {
    const logGroup = idOf(resources, "AWS::Logs::LogGroup", "ConsoleLogs");
    expect(resources[logGroup]!.Properties.RetentionInDays).toBe(90);
    expect(container.LogConfiguration).toMatchObject({
      LogDriver: "awslogs",
      Options: { "awslogs-group": { Ref: logGroup } },
    });
    template.hasResourceProperties("AWS::ECS::Cluster", {
      ClusterSettings: [{ Name: "containerInsights", Value: "enabled" }],
    });
  });
});

describe("the console's settings and secrets", () => {
  it("passes the session key, the client secret and the database password as ECS secrets, never in the environment", () => {
    expect(container.Secrets.map((s) => s.Name)).toEqual([
      "CONSOLE_SESSION_SECRET",
      "CONSOLE_OIDC_CLIENT_SECRET",
      "PGPASSWORD",
    ]);
    const secrets = Object.keys(resources).filter((id) => resources[id]!.Type === "AWS::SecretsManager::Secret");
    expect(secrets).toHaveLength(3);
    const environmentText = JSON.stringify(container.Environment);
    for (const id of secrets) expect(environmentText).not.toContain(id);
    for (const name of container.Secrets.map((s) => s.Name)) expect(environment()).not.toHaveProperty(name);
    expect(flattenReference(container.Secrets[2]!.ValueFrom)).toMatch(
      /^<DatabaseSecretAttachment[0-9A-F]{8}>:password::$/,
    );
  });

  it("generates a session key of 64 letters and digits", () => {
    template.hasResourceProperties("AWS::SecretsManager::Secret", {
      GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true },
    });
  });

  it("stores the Cognito app client's own secret", () => {
    const client = idOf(resources, "AWS::Cognito::UserPoolClient", "UsersConsole");
    template.hasResourceProperties("AWS::SecretsManager::Secret", {
      SecretString: { "Fn::GetAtt": [client, "ClientSecret"] },
    });
  });

  it("reads the main stack's bucket, repository, role and projects through cross-stack references", () => {
    const settings = environment();
    for (const name of [
      "CONSOLE_ARTIFACT_BUCKET",
      "ECR_REPOSITORY",
      "SAGEMAKER_EXECUTION_ROLE_ARN",
      "CODEBUILD_MODEL_PROJECT",
      "CODEBUILD_IMAGE_PROJECT",
    ]) {
      expect(settings[name]).toMatch(/^\{"Fn::ImportValue":"DecisionConsole:ExportsOutput/);
    }
    expect(settings.CONSOLE_RESOURCE_PREFIX).toBe("dc-");
    expect(settings.CONSOLE_MODE).toBe("aws");
  });

  it("trusts forwarded headers only from the load balancer's subnets, and knows its public origin", () => {
    const loadBalancerSubnets = [1, 2].map(
      (n) => resources[idOf(resources, "AWS::EC2::Subnet", `NetworkLoadBalancerSubnet${n}`)]!.Properties.CidrBlock,
    );
    expect(environment().CONSOLE_TRUSTED_PROXIES).toBe(loadBalancerSubnets.join(","));
    expect(environment()).toMatchObject({
      CONSOLE_PUBLIC_ORIGIN: "https://<DomainName>",
      CONSOLE_OIDC_REDIRECT_URI: "https://<DomainName>/api/auth/oidc/callback",
    });
  });

  it("points the console at the database by a libpq URL without the password, TLS required", () => {
    expect(environment().CONSOLE_DATABASE_URL).toMatch(
      /^postgres:\/\/console@<Database[0-9A-F]{8}\.Endpoint\.Address>:<Database[0-9A-F]{8}\.Endpoint\.Port>\/console\?sslmode=verify-full$/,
    );
  });

  it("names only settings the console documents (docs/settings.md), libpq's PGPASSWORD and Next.js's KEEP_ALIVE_TIMEOUT", () => {
    const documented = readFileSync(new URL("../../../docs/settings.md", import.meta.url), "utf8");
    const names = [...container.Environment, ...container.Secrets].map((variable) => variable.Name);
    const undocumented = names.filter((name) => !documented.includes(`\`${name}\``));
    // PGPASSWORD is libpq's own variable, read by the PostgreSQL client, and KEEP_ALIVE_TIMEOUT Next.js's standalone
    // server's: neither is a console setting.
    expect(undocumented.sort()).toEqual(["KEEP_ALIVE_TIMEOUT", "PGPASSWORD"]);
  });

  it("keeps an idle connection from the load balancer open longer than the load balancer does", () => {
    // Next.js's standalone server reads KEEP_ALIVE_TIMEOUT (milliseconds); unset, Node.js keeps an idle one 5 s.
    const keepAliveMs = Number(environment().KEEP_ALIVE_TIMEOUT ?? 5000);
    expect(keepAliveMs).toBeGreaterThan(loadBalancerIdleSeconds() * 1000);
  });
});

describe("the roles", () => {
  it("gives the console's tasks the main stack's console policy and nothing else", () => {
    const taskRole = idOf(resources, "AWS::IAM::Role", "ConsoleTaskRole");
    const role = resources[taskRole]!.Properties;
    expect(role.Policies).toBeUndefined();
    expect(role.ManagedPolicyArns).toHaveLength(1);
    const imported = (role.ManagedPolicyArns as { "Fn::ImportValue": string }[])[0]!["Fn::ImportValue"];
    const exported = Object.values(
      consoleTemplate.toJSON().Outputs as Record<string, { Value: unknown; Export?: { Name: string } }>,
    ).find((output) => output.Export?.Name === imported);
    expect(exported?.Value).toEqual({ Ref: expect.stringMatching(/^ConsolePolicy[0-9A-F]{8}$/) });
    const attachedElsewhere = Object.values(resources).filter(
      (r) =>
        (r.Type === "AWS::IAM::Policy" || r.Type === "AWS::IAM::ManagedPolicy") &&
        JSON.stringify(r.Properties.Roles ?? []).includes(taskRole),
    );
    expect(attachedElsewhere).toEqual([]);
    template.hasResourceProperties("AWS::ECS::TaskDefinition", { TaskRoleArn: { "Fn::GetAtt": [taskRole, "Arn"] } });
  });

  it("lets only ECS tasks of this account and Region take the task role", () => {
    const taskRole = resources[idOf(resources, "AWS::IAM::Role", "ConsoleTaskRole")]!.Properties;
    expect(taskRole.AssumeRolePolicyDocument).toMatchObject({
      Statement: [
        {
          Principal: { Service: "ecs-tasks.amazonaws.com" },
          Condition: {
            StringEquals: { "aws:SourceAccount": { Ref: "AWS::AccountId" } },
            ArnLike: { "aws:SourceArn": expect.anything() },
          },
        },
      ],
    });
  });

  it("lets ECS pull the image, write the log group and read the three secrets, nothing else", () => {
    const executionRole = idOf(resources, "AWS::IAM::Role", "ConsoleExecutionRole");
    const policies = Object.values(resources).filter(
      (r) => r.Type === "AWS::IAM::Policy" && JSON.stringify(r.Properties.Roles).includes(executionRole),
    );
    expect(policies).toHaveLength(1);
    const statements = (policies[0]!.Properties.PolicyDocument as { Statement: Statement[] }).Statement;
    const pull = statements.find((s) => s.Sid === "PullConsoleImage")!;
    const uri = `123456789012.dkr.ecr.eu-west-1.amazonaws.com/decision-console@sha256:${"ab".repeat(32)}`;
    expect(evaluateCfn(pull.Resource, { "AWS::Partition": "aws", ConsoleImageUri: uri })).toBe(
      "arn:aws:ecr:eu-west-1:123456789012:repository/decision-console",
    );
    const grants = statements
      .filter((s) => s !== pull)
      .map((s) => `${list(s.Action).sort().join(",")} on ${list(s.Resource).map(flattenReference).join(",")}`);
    const logGroup = idOf(resources, "AWS::Logs::LogGroup", "ConsoleLogs");
    const secret = (start: string) => `<${idOf(resources, "AWS::SecretsManager::Secret", start)}>`;
    expect(list(pull.Action).sort()).toEqual([
      "ecr:BatchCheckLayerAvailability",
      "ecr:BatchGetImage",
      "ecr:GetDownloadUrlForLayer",
    ]);
    expect(grants.sort()).toEqual(
      [
        "ecr:GetAuthorizationToken on *",
        `logs:CreateLogStream,logs:PutLogEvents on <${logGroup}.Arn>`,
        `secretsmanager:DescribeSecret,secretsmanager:GetSecretValue on ${secret("SessionSecret")}`,
        `secretsmanager:DescribeSecret,secretsmanager:GetSecretValue on ${secret("OidcClientSecret")}`,
        `secretsmanager:DescribeSecret,secretsmanager:GetSecretValue on <${idOf(resources, "AWS::SecretsManager::SecretTargetAttachment", "DatabaseSecretAttachment")}>`,
      ].sort(),
    );
  });
});

describe("the load balancer", () => {
  it("serves HTTPS with the CertificateArn parameter and a TLS 1.3/1.2 policy, and redirects HTTP to it", () => {
    template.hasResourceProperties("AWS::ElasticLoadBalancingV2::Listener", {
      Port: 443,
      Protocol: "HTTPS",
      Certificates: [{ CertificateArn: { Ref: "CertificateArn" } }],
      SslPolicy: "ELBSecurityPolicy-TLS13-1-2-Res-PQ-2025-09",
    });
    template.hasResourceProperties("AWS::ElasticLoadBalancingV2::Listener", {
      Port: 80,
      Protocol: "HTTP",
      DefaultActions: [
        { Type: "redirect", RedirectConfig: { Protocol: "HTTPS", Port: "443", StatusCode: "HTTP_301" } },
      ],
    });
    template.resourceCountIs("AWS::ElasticLoadBalancingV2::Listener", 2);
  });

  it("forwards every path to the console, the decision gateway's /v1/* with the pages and /api/*, with no sign-in before it", () => {
    // The gateway's callers bring an API key, not a browser session: an authenticate-oidc or -cognito action, or a
    // rule sending /v1/* elsewhere, would keep typesafe-sdk and openai from reaching it (docs/gateway.md).
    const https = Object.values(resources).find(
      (r) => r.Type === "AWS::ElasticLoadBalancingV2::Listener" && r.Properties.Port === 443,
    )!;
    const actions = https.Properties.DefaultActions as { Type: string; TargetGroupArn: unknown }[];
    const targetGroup = idOf(resources, "AWS::ElasticLoadBalancingV2::TargetGroup", "");
    expect(actions).toEqual([{ Type: "forward", TargetGroupArn: { Ref: targetGroup } }]);
    template.resourceCountIs("AWS::ElasticLoadBalancingV2::ListenerRule", 0);
  });

  it("drops invalid header fields, logs every request to S3 and keeps its deletion protection a parameter", () => {
    const bucket = idOf(resources, "AWS::S3::Bucket", "HostingLogs");
    const lb = resources[idOf(resources, "AWS::ElasticLoadBalancingV2::LoadBalancer", "LoadBalancer")]!.Properties;
    expect(lb.Scheme).toBe("internet-facing");
    expect(lb.LoadBalancerAttributes).toEqual(
      expect.arrayContaining([
        { Key: "routing.http.drop_invalid_header_fields.enabled", Value: "true" },
        { Key: "deletion_protection.enabled", Value: { Ref: "LoadBalancerDeletionProtection" } },
        { Key: "access_logs.s3.enabled", Value: "true" },
        { Key: "access_logs.s3.bucket", Value: { Ref: bucket } },
        { Key: "access_logs.s3.prefix", Value: "load-balancer" },
      ]),
    );
  });

  it("keeps a connection without data open longer than the console's longest synchronous invocation", () => {
    expect(loadBalancerIdleSeconds()).toBeGreaterThan(LONGEST_INVOCATION_SECONDS);
  });

  it("lets Elastic Load Balancing write its logs: its account in older Regions, its service in newer ones", () => {
    const policy = Object.values(resources).find((r) => r.Type === "AWS::S3::BucketPolicy")!;
    const statement = (
      policy.Properties.PolicyDocument as { Statement: (Statement & { Principal: unknown })[] }
    ).Statement.find((s) => s.Sid === "LoadBalancerAccessLogs")!;
    expect(statement.Action).toBe("s3:PutObject");
    expect(flattenReference(statement.Resource)).toMatch(/\/load-balancer\/AWSLogs\/<AWS::AccountId>\/\*$/);
    expect(statement.Principal).toEqual({
      AWS: { "Fn::If": ["LoadBalancerLogsWrittenByAccount", expect.anything(), { Ref: "AWS::NoValue" }] },
      Service: {
        "Fn::If": [
          "LoadBalancerLogsWrittenByAccount",
          { Ref: "AWS::NoValue" },
          "logdelivery.elasticloadbalancing.amazonaws.com",
        ],
      },
    });
    const accounts = template.toJSON().Mappings.LoadBalancerLogAccounts;
    expect(accounts["us-east-1"]).toEqual({ account: "127311923021" });
    expect(accounts["ap-southeast-5"]).toEqual({ account: "none" });
  });
});

describe("the network", () => {
  it("spans two Availability Zones with one NAT gateway by default, and logs its flows", () => {
    template.resourceCountIs("AWS::EC2::NatGateway", 1);
    template.resourceCountIs("AWS::EC2::Subnet", 6);
    template.hasResourceProperties("AWS::EC2::FlowLog", { LogDestinationType: "s3", TrafficType: "ALL" });
  });

  it("takes a NAT gateway per Availability Zone when asked, and refuses other counts", () => {
    const app = new App();
    const consoleStack = new DecisionConsoleStack(app, "DecisionConsole");
    const two = new DecisionConsoleHostingStack(app, "Two", { consoleStack, natGateways: 2 });
    Template.fromStack(two).resourceCountIs("AWS::EC2::NatGateway", 2);
    expect(() => new DecisionConsoleHostingStack(app, "Three", { consoleStack, natGateways: 3 })).toThrow(
      "natGateways must be 1 or 2, not 3",
    );
  });

  it("admits IngressCidr to the load balancer only, the load balancer to the tasks only, the tasks to the database only", () => {
    const group = (start: string) => idOf(resources, "AWS::EC2::SecurityGroup", start);
    const lbIngress = (
      resources[group("LoadBalancerSecurityGroup")]!.Properties.SecurityGroupIngress as Record<string, unknown>[]
    ).map((rule) => `${flattenReference(rule.CidrIp)}:${rule.FromPort}`);
    expect(lbIngress.sort()).toEqual(["<IngressCidr>:443", "<IngressCidr>:80"]);
    const text = (value: unknown) => (typeof value === "number" ? String(value) : flattenReference(value));
    const ingress = Object.values(resources)
      .filter((r) => r.Type === "AWS::EC2::SecurityGroupIngress")
      .map((r) => {
        const { SourceSecurityGroupId: source, GroupId: target, FromPort: from, ToPort: to } = r.Properties;
        return `${text(source)} -> ${text(target)}:${text(from)}-${text(to)}`;
      });
    const databasePort = `<${idOf(resources, "AWS::RDS::DBInstance", "Database")}.Endpoint.Port>`;
    expect(ingress.sort()).toEqual(
      [
        `<${group("ConsoleSecurityGroup")}.GroupId> -> <${group("DatabaseSecurityGroup")}.GroupId>:${databasePort}-${databasePort}`,
        `<${group("LoadBalancerSecurityGroup")}.GroupId> -> <${group("ConsoleSecurityGroup")}.GroupId>:3000-3000`,
      ].sort(),
    );
  });
});

describe("the database", () => {
  it("is PostgreSQL, encrypted, backed up for 7 days, protected from deletion and never public", () => {
    template.hasResourceProperties("AWS::RDS::DBInstance", {
      Engine: "postgres",
      DBInstanceClass: "db.t4g.micro",
      StorageEncrypted: true,
      BackupRetentionPeriod: 7,
      DeletionProtection: true,
      PubliclyAccessible: false,
      MultiAZ: { "Fn::If": ["DatabaseMultiAzChosen", true, false] },
    });
    template.hasResource("AWS::RDS::DBInstance", { DeletionPolicy: "Snapshot", UpdateReplacePolicy: "Snapshot" });
  });

  it("lives in the isolated subnets", () => {
    const group = Object.values(resources).find((r) => r.Type === "AWS::RDS::DBSubnetGroup")!;
    expect((group.Properties.SubnetIds as unknown[]).map(flattenReference).sort()).toEqual([
      `<${idOf(resources, "AWS::EC2::Subnet", "NetworkDatabaseSubnet1")}>`,
      `<${idOf(resources, "AWS::EC2::Subnet", "NetworkDatabaseSubnet2")}>`,
    ]);
    template.hasResourceProperties("AWS::EC2::Subnet", { MapPublicIpOnLaunch: false });
  });

  it("refuses connections without TLS", () => {
    template.hasResourceProperties("AWS::RDS::DBParameterGroup", { Parameters: { "rds.force_ssl": "1" } });
  });
});

describe("sign-in", () => {
  it("creates a Cognito user pool without self sign-up, with MFA required, strong passwords and threat protection", () => {
    template.hasResourceProperties("AWS::Cognito::UserPool", {
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      MfaConfiguration: "ON",
      EnabledMfas: ["SOFTWARE_TOKEN_MFA"],
      Policies: {
        PasswordPolicy: {
          MinimumLength: 14,
          RequireLowercase: true,
          RequireUppercase: true,
          RequireNumbers: true,
          RequireSymbols: true,
        },
      },
      UserPoolTier: "PLUS",
      UserPoolAddOns: { AdvancedSecurityMode: "ENFORCED" },
      DeletionProtection: "ACTIVE",
    });
  });

  it("has a group per console role, which the console reads from cognito:groups", () => {
    const groups = Object.values(resources)
      .filter((r) => r.Type === "AWS::Cognito::UserPoolGroup")
      .map((r) => r.Properties.GroupName);
    expect(groups.sort()).toEqual(["operator", "viewer"]);
    expect(environment().CONSOLE_OIDC_ROLE_CLAIM).toBe("cognito:groups");
  });

  it("registers the console's callback for the authorization code flow, with a client secret", () => {
    template.hasResourceProperties("AWS::Cognito::UserPoolClient", {
      GenerateSecret: true,
      AllowedOAuthFlows: ["code"],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: ["openid", "email", "profile"],
      CallbackURLs: [{ "Fn::Join": ["", ["https://", { Ref: "DomainName" }, "/api/auth/oidc/callback"]] }],
      SupportedIdentityProviders: ["COGNITO"],
    });
    template.hasResourceProperties("AWS::Cognito::UserPoolDomain", { Domain: { Ref: "CognitoDomainPrefix" } });
    expect(environment().CONSOLE_OIDC_ISSUER).toMatch(
      /^https:\/\/cognito-idp\.<AWS::Region>\.<AWS::URLSuffix>\/<Users[0-9A-F]{8}>$/,
    );
  });

  it("signs in through any issuer instead, given by parameters (-c signIn=issuer)", () => {
    const issuer = synth("issuer");
    issuer.template.resourceCountIs("AWS::Cognito::UserPool", 0);
    const parameters = issuer.template.toJSON().Parameters;
    expect(parameters).toHaveProperty("OidcIssuer");
    expect(parameters).toHaveProperty("OidcClientId");
    expect(parameters.OidcRoleClaim.Default).toBe("groups");
    const task = Object.values(issuer.resources).find((r) => r.Type === "AWS::ECS::TaskDefinition")!;
    const definition = (task.Properties.ContainerDefinitions as ContainerDefinition[])[0]!;
    const env = Object.fromEntries(definition.Environment.map((e) => [e.Name, flattenReference(e.Value)]));
    expect(env).toMatchObject({
      CONSOLE_OIDC_ISSUER: "<OidcIssuer>",
      CONSOLE_OIDC_CLIENT_ID: "<OidcClientId>",
      CONSOLE_OIDC_ROLE_CLAIM: "<OidcRoleClaim>",
    });
    expect(definition.Secrets.find((s) => s.Name === "CONSOLE_OIDC_CLIENT_SECRET")!.ValueFrom).toEqual({
      Ref: "OidcClientSecretArn",
    });
  });
});

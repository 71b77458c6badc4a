import { Aws } from "aws-cdk-lib";
import { type IManagedPolicy, PolicyStatement, Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import type { Construct } from "constructs";
import { acknowledgeWildcardResources } from "../nag-acknowledgements.ts";
import { imageRepositoryArn } from "./console-image.ts";

/**
 * What the console itself may do in AWS: exactly the main stack's console policy, nothing inline (a test holds the
 * role to that). The trust is limited to ECS tasks of this account and Region (the confused-deputy conditions ECS
 * documents for task roles).
 */
export function createConsoleTaskRole(scope: Construct, consolePolicy: IManagedPolicy): Role {
  return new Role(scope, "ConsoleTaskRole", {
    description: "The Decision Console's tasks: the console policy only",
    assumedBy: new ServicePrincipal("ecs-tasks.amazonaws.com").withConditions({
      ArnLike: { "aws:SourceArn": `arn:${Aws.PARTITION}:ecs:${Aws.REGION}:${Aws.ACCOUNT_ID}:*` },
      StringEquals: { "aws:SourceAccount": Aws.ACCOUNT_ID },
    }),
    managedPolicies: [consolePolicy],
  });
}

/**
 * What ECS does before the console runs: pull its image from the one repository the ConsoleImageUri parameter
 * names, and (granted where they are used) write its log group and read its secrets.
 */
export function createConsoleExecutionRole(scope: Construct, imageUri: string): Role {
  const role = new Role(scope, "ConsoleExecutionRole", {
    description: "ECS starting the Decision Console: its image, its logs, its secrets",
    assumedBy: new ServicePrincipal("ecs-tasks.amazonaws.com"),
  });
  const statements = [
    new PolicyStatement({
      sid: "PullConsoleImage",
      actions: ["ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer", "ecr:BatchCheckLayerAvailability"],
      resources: [imageRepositoryArn(imageUri)],
    }),
    new PolicyStatement({ sid: "SignInToEcr", actions: ["ecr:GetAuthorizationToken"], resources: ["*"] }),
  ];
  for (const statement of statements) role.addToPrincipalPolicy(statement);
  acknowledgeWildcardResources(role, statements, {
    SignInToEcr: "GetAuthorizationToken has no resource type (Service Authorization Reference)",
  });
  return role;
}

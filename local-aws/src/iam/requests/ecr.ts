import type { AuthorizationQuery } from "../evaluate.ts";
import { type OperationAuthorization, type RequestFacts, str } from "./facts.ts";

/** A repository's ARN names the registry it is in: the request's `registryId`, else the caller's account. */
function repositoryArn(facts: RequestFacts, name: string, registryId: unknown): string {
  return `arn:aws:ecr:${facts.region}:${str(registryId) || facts.accountId}:repository/${name}`;
}

function onRepository(action: string): OperationAuthorization {
  return (input, facts) => [
    { action, resource: repositoryArn(facts, str(input.repositoryName), input.registryId), context: {} },
  ];
}

/** ECR: repository operations on the repository's ARN (in another account's registry too); listing every repository is authorised on `*`. */
export const ecrAuthorization: Record<string, OperationAuthorization> = {
  DescribeRepositories(input, facts): AuthorizationQuery[] {
    const names = Array.isArray(input.repositoryNames) ? (input.repositoryNames as string[]) : undefined;
    if (!names) return [{ action: "ecr:DescribeRepositories", resource: "*", context: {} }];
    return names.map((name) => ({
      action: "ecr:DescribeRepositories",
      resource: repositoryArn(facts, name, input.registryId),
      context: {},
    }));
  },
  DescribeImages: onRepository("ecr:DescribeImages"),
  ListImages: onRepository("ecr:ListImages"),
  BatchGetImage: onRepository("ecr:BatchGetImage"),
};

import type { AuthorizationQuery } from "../evaluate.ts";
import { type OperationAuthorization, type RequestFacts, str } from "./facts.ts";

function repositoryArn(facts: RequestFacts, name: string): string {
  return `arn:aws:ecr:${facts.region}:${facts.accountId}:repository/${name}`;
}

function onRepository(action: string): OperationAuthorization {
  return (input, facts) => [{ action, resource: repositoryArn(facts, str(input.repositoryName)), context: {} }];
}

/** ECR: repository operations on the repository's ARN; listing every repository is authorised on `*`. */
export const ecrAuthorization: Record<string, OperationAuthorization> = {
  DescribeRepositories(input, facts): AuthorizationQuery[] {
    const names = Array.isArray(input.repositoryNames) ? (input.repositoryNames as string[]) : undefined;
    if (!names) return [{ action: "ecr:DescribeRepositories", resource: "*", context: {} }];
    return names.map((name) => ({
      action: "ecr:DescribeRepositories",
      resource: repositoryArn(facts, name),
      context: {},
    }));
  },
  DescribeImages: onRepository("ecr:DescribeImages"),
  ListImages: onRepository("ecr:ListImages"),
  BatchGetImage: onRepository("ecr:BatchGetImage"),
};

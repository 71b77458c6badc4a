import { AwsError } from "../wire/aws-error.ts";

/**
 * ECR's paging, as DescribeRepositories, DescribeImages and ListImages document it: `maxResults` from 1 to 1000
 * ("If this parameter is not used, then ... returns up to 100 results and a nextToken value, if applicable"), and
 * `nextToken` from the previous answer. "This option cannot be used when you specify images with imageIds" (and
 * repositories with repositoryNames).
 */
export function ecrPage<T>(items: T[], input: Record<string, unknown>, named: "imageIds" | "repositoryNames" | null) {
  const given = input.maxResults !== undefined || input.nextToken !== undefined;
  if (named && input[named] !== undefined && given) {
    throw new AwsError("InvalidParameterException", `maxResults and nextToken cannot be used with ${named}.`);
  }
  const max = input.maxResults === undefined ? 100 : Number(input.maxResults);
  if (!Number.isInteger(max) || max < 1 || max > 1000) {
    throw new AwsError("InvalidParameterException", "maxResults must be between 1 and 1000.");
  }
  const offset = typeof input.nextToken === "string" ? Number.parseInt(input.nextToken, 10) : 0;
  if (!Number.isInteger(offset) || offset < 0 || offset > items.length) {
    throw new AwsError("InvalidParameterException", "Invalid parameter at 'nextToken': the token is not valid.");
  }
  const end = offset + max;
  return { items: items.slice(offset, end), nextToken: end < items.length ? String(end) : undefined };
}

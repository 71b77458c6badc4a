/**
 * A CloudFormation value as one line of text, the way cdk-nag names its findings: `<ArtifactBucket7410C9EF.Arn>/models/*`,
 * `arn:<AWS::Partition>:logs:...`. Used to acknowledge findings by their exact id and to read templates in tests.
 */
export function flattenReference(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  const object = value as Record<string, unknown>;
  if ("Fn::Join" in object) {
    const [separator, parts] = object["Fn::Join"] as [string, unknown[]];
    return parts.map(flattenReference).join(separator);
  }
  if ("Fn::GetAtt" in object) {
    const [resource, attribute] = object["Fn::GetAtt"] as [string, string];
    return `<${resource}.${attribute}>`;
  }
  if ("Ref" in object) return `<${String(object.Ref)}>`;
  if ("Fn::FindInMap" in object) {
    const [map, key, attribute] = object["Fn::FindInMap"] as [string, unknown, string];
    return `<${map}[${flattenReference(key)}].${attribute}>`;
  }
  return JSON.stringify(value);
}

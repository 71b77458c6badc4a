/**
 * Evaluates the CloudFormation intrinsics a template builds strings with (Ref, Fn::Join, Fn::Split, Fn::Select), as
 * CloudFormation would at deployment, for the parameter and pseudo-parameter values given. Anything else throws.
 */
export function evaluateCfn(value: unknown, refs: Readonly<Record<string, string>>): unknown {
  if (typeof value === "string" || typeof value === "number") return value;
  if (Array.isArray(value)) return value.map((item) => evaluateCfn(item, refs));
  const [[intrinsic, argument]] = Object.entries(value as Record<string, unknown>) as [[string, unknown]];
  const args = argument as unknown[];
  switch (intrinsic) {
    case "Ref": {
      const resolved = refs[argument as string];
      if (resolved === undefined) throw new Error(`no value given for Ref ${String(argument)}`);
      return resolved;
    }
    case "Fn::Join":
      return (evaluateCfn(args[1], refs) as string[]).join(args[0] as string);
    case "Fn::Split":
      return (evaluateCfn(args[1], refs) as string).split(args[0] as string);
    case "Fn::Select":
      return (evaluateCfn(args[1], refs) as unknown[])[Number(evaluateCfn(args[0], refs))];
    default:
      throw new Error(`cannot evaluate ${intrinsic}`);
  }
}

import { describe, expect, it } from "vitest";
import { applicationAutoScalingServedMembers } from "../services/application-auto-scaling-served.ts";
import { cloudWatchServedMembers } from "../services/cloudwatch-served.ts";
import { sageMakerServedMembers } from "../services/sagemaker-served.ts";
import { applicationAutoScalingInputShapes } from "./generated/application-auto-scaling.ts";
import { cloudWatchInputShapes } from "./generated/cloudwatch.ts";
import { sageMakerInputShapes } from "./generated/sagemaker.ts";
import type { Shape } from "./input-shapes.ts";
import { onlyValues, type Served, unservedMember } from "./served-members.ts";

describe("unservedMember", () => {
  const served: Served = {
    Name: "served",
    Variants: { VariantName: "served", Mode: onlyValues("SingleModel") },
  };

  it("names the first member outside the served tree, with its path through lists", () => {
    expect(unservedMember(served, { Name: "a", Variants: [{ VariantName: "v" }] })).toBeNull();
    expect(unservedMember(served, { Name: "a", Capture: {} })).toBe("Capture");
    expect(unservedMember(served, { Variants: [{ VariantName: "v" }, { VariantName: "w", Routing: {} }] })).toBe(
      "Variants[1].Routing",
    );
  });

  it("lets a check refuse a value, and passes members that are absent or null", () => {
    expect(unservedMember(served, { Variants: [{ Mode: "SingleModel" }] })).toBeNull();
    expect(unservedMember(served, { Variants: [{ Mode: "MultiModel" }] })).toBe('Variants[0].Mode "MultiModel"');
    expect(unservedMember(served, { Name: "a", Capture: null, Other: undefined })).toBeNull();
  });
});

/** Every member a served tree names is a member of the operation's input in the service model (no typo passes). */
function namedMembers(served: Served, shape: Shape, path: string): string[] {
  if (typeof served !== "object") return [];
  const structure = shape.type === "list" ? shape.member : shape;
  if (structure.type !== "structure") return [`${path}: not a structure in the model`];
  return Object.entries(served).flatMap(([member, rule]) => {
    const memberShape = structure.members[member];
    if (!memberShape) return [`${path}.${member}`];
    return namedMembers(rule, memberShape, `${path}.${member}`);
  });
}

describe("the served-member tables", () => {
  it.each([
    ["SageMaker", sageMakerServedMembers, sageMakerInputShapes],
    ["Application Auto Scaling", applicationAutoScalingServedMembers, applicationAutoScalingInputShapes],
    ["CloudWatch", cloudWatchServedMembers, cloudWatchInputShapes],
  ] as const)("name only members of %s's service model", (_, tables, shapes) => {
    const unknown = Object.entries(tables).flatMap(([operation, served]) =>
      namedMembers(served, shapes[operation as keyof typeof shapes] as Shape, operation),
    );
    expect(unknown).toEqual([]);
  });
});

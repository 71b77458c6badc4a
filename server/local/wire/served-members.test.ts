import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applicationAutoScalingServedMembers } from "../services/application-auto-scaling-served.ts";
import { cloudWatchLogsServedMembers } from "../services/cloudwatch-logs-served.ts";
import { cloudWatchServedMembers } from "../services/cloudwatch-served.ts";
import { codeBuildServedMembers } from "../services/codebuild-served.ts";
import { ecrServedMembers } from "../services/ecr-served.ts";
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

const python = path.resolve(import.meta.dirname, "../../../.venv-tests/bin/python");
const required = process.env.PYTHON_TESTS === "required";
if (!fs.existsSync(python)) console.warn("served-member tables of CodeBuild, ECR and Logs: skipped: no .venv-tests");

/** Each operation's input shape from the pinned botocore, as the `Shape` tree namedMembers reads. */
function botocoreInputs(service: string, operations: string[]): Record<string, Shape> {
  const script = `
import json, sys, botocore.session
model = botocore.session.get_session().get_service_model(sys.argv[1])
def tree(shape, depth=0):
    if shape.type_name == "structure" and depth < 8:
        return {"type": "structure", "members": {n: tree(m, depth + 1) for n, m in shape.members.items()}}
    if shape.type_name == "list":
        return {"type": "list", "member": tree(shape.member, depth + 1)}
    return {"type": "string"}
print(json.dumps({op: tree(model.operation_model(op).input_shape) for op in sys.argv[2:]}))
`;
  const run = spawnSync(python, ["-c", script, service, ...operations], { encoding: "utf8", timeout: 60_000 });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as Record<string, Shape>;
}

describe.skipIf(!fs.existsSync(python) && !required)("the served-member tables without generated shapes", () => {
  it.each([
    ["codebuild", codeBuildServedMembers],
    ["ecr", ecrServedMembers],
    ["logs", cloudWatchLogsServedMembers],
  ] as const)("name only operations and members of botocore's %s model", (service, tables) => {
    const shapes = botocoreInputs(service, Object.keys(tables));
    const unknown = Object.entries(tables).flatMap(([operation, served]) =>
      namedMembers(served, shapes[operation]!, operation),
    );
    expect(unknown).toEqual([]);
  });
});

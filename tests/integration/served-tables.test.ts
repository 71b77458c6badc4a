import path from "node:path";
import {
  cloudWatchLogsServedMembers,
  codeBuildServedMembers,
  ecrServedMembers,
  type Served,
} from "@decision-console/local-aws/testing";
import { describe, expect, it } from "vitest";
import {
  locateBotocore,
  readServiceModel,
  type ServiceModel,
  TEST_VENV_PYTHON,
} from "../../scripts/aws-shapes/botocore-models.ts";

/**
 * The served-member tables of the services local mode has no generated shapes for (CodeBuild, ECR, CloudWatch Logs)
 * name only operations and members of botocore's own models (the generated ones are checked in
 * local-aws/src/wire/served-members.test.ts).
 */
const botocore = locateBotocore(path.resolve(import.meta.dirname, "../.."));
const required = process.env.PYTHON_TESTS === "required";
if (!botocore) console.warn(`served-member tables of CodeBuild, ECR and Logs: skipped: no ${TEST_VENV_PYTHON}`);

/** The members a served tree names that the model's shape `name` (a structure, or a list of them) does not have. */
function unknownMembers(model: ServiceModel, served: Served, name: string, at: string): string[] {
  if (typeof served !== "object") return [];
  const shape = model.shapes[name];
  const structure = shape?.type === "list" ? model.shapes[shape.member!.shape] : shape;
  if (structure?.type !== "structure") return [`${at}: not a structure in the model`];
  return Object.entries(served).flatMap(([member, rule]) => {
    const child = structure.members?.[member];
    return child ? unknownMembers(model, rule, child.shape, `${at}.${member}`) : [`${at}.${member}`];
  });
}

describe.skipIf(!botocore && !required)("the served-member tables without generated shapes", () => {
  it.each([
    ["codebuild", "2016-10-06", codeBuildServedMembers],
    ["ecr", "2015-09-21", ecrServedMembers],
    ["logs", "2014-03-28", cloudWatchLogsServedMembers],
  ] as const)("name only operations and members of botocore's %s model", (service, apiVersion, tables) => {
    if (!botocore) throw new Error(`PYTHON_TESTS=required but there is no ${TEST_VENV_PYTHON}`);
    const model = readServiceModel(botocore, service, apiVersion);
    const unknown = Object.entries(tables).flatMap(([operation, served]) => {
      const input = model.operations[operation]?.input?.shape;
      return input ? unknownMembers(model, served, input, operation) : [`${operation}: no such operation`];
    });
    expect(unknown).toEqual([]);
  });
});

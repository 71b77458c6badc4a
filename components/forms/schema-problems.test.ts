import { describe, expect, it } from "vitest";
import { z } from "zod";
import { problemsFromIssues, schemaProblems } from "./schema-problems.ts";

const schema = z.strictObject({
  name: z.string().min(1, "give a name"),
  compute: z.strictObject({
    threads: z.number().int().min(1, "at least one thread"),
    pools: z.array(z.string().min(1, "name the type")).max(2, "at most 2 pools"),
  }),
  note: z.string().optional(),
});
type Field = "name" | "threads" | "pools";
const fieldsByPath = { name: "name", "compute.threads": "threads", "compute.pools": "pools" } as const;
const labels: Record<Field, string> = { name: "Endpoint name", threads: "Threads", pools: "Instance pools" };

describe("problems from a schema", () => {
  it("finds none in a valid input", () => {
    const problems = schemaProblems(schema, { name: "a", compute: { threads: 1, pools: [] } }, fieldsByPath, labels);
    expect(problems).toEqual({ fields: {}, summary: [] });
  });

  it("puts each issue at the field its path belongs to, in the schema's words, and names it in the summary", () => {
    const problems = schemaProblems(
      schema,
      { name: "", compute: { threads: 0, pools: ["a", "b", "c"] } },
      fieldsByPath,
      labels,
    );
    expect(problems.fields).toEqual({ name: "give a name", threads: "at least one thread", pools: "at most 2 pools" });
    expect(problems.summary).toEqual([
      "Endpoint name: give a name",
      "Threads: at least one thread",
      "Instance pools: at most 2 pools",
    ]);
  });

  it("gives a nested path the field of its longest listed prefix", () => {
    const problems = schemaProblems(
      schema,
      { name: "a", compute: { threads: 1, pools: ["a", ""] } },
      fieldsByPath,
      labels,
    );
    expect(problems.fields).toEqual({ pools: "name the type" });
  });

  it("keeps the first problem of a field and lists an issue tied to no field by its path", () => {
    const problems = problemsFromIssues(
      [
        { path: ["name"], message: "give a name" },
        { path: ["name"], message: "too long" },
        { path: ["note"], message: "unexpected" },
        { path: [], message: "Unrecognized key: colour" },
      ],
      fieldsByPath,
      labels,
    );
    expect(problems.fields).toEqual({ name: "give a name" });
    expect(problems.summary).toEqual([
      "Endpoint name: give a name",
      "Endpoint name: too long",
      "note: unexpected",
      "Unrecognized key: colour",
    ]);
  });

  it("does not list the same problem twice", () => {
    const issue = { path: ["compute", "pools", 1], message: "name the type" };
    expect(
      problemsFromIssues([issue, { ...issue, path: ["compute", "pools", 2] }], fieldsByPath, labels).summary,
    ).toEqual(["Instance pools: name the type"]);
  });
});

import { describe, expect, it } from "vitest";
import { canSubmit, shownProblems, untouched, withEdited } from "./shown-problems.ts";

const problems = {
  fields: { name: "Give a name.", instanceCount: "At least 1 instance." },
  summary: ["Endpoint name: Give a name.", "Instance count: At least 1 instance.", "modelBytes: Must be above 0."],
};

describe("the problems a form shows while a person types", () => {
  it("shows a field's problem as soon as that field was typed in, not before, and no summary yet", () => {
    expect(shownProblems(problems, untouched)).toEqual({ fields: {}, summary: [] });
    const typed = withEdited(untouched, "instanceCount");
    expect(shownProblems(problems, typed)).toEqual({ fields: { instanceCount: "At least 1 instance." }, summary: [] });
    expect(withEdited(typed, "instanceCount")).toBe(typed);
  });

  it("shows every problem, and the summary with those tied to no field, once a submit was tried", () => {
    expect(shownProblems(problems, { ...untouched, submitted: true })).toEqual(problems);
  });

  it("blocks the submit while any problem remains, shown or not", () => {
    expect(canSubmit(problems)).toBe(false);
    expect(canSubmit({ fields: {}, summary: ["modelBytes: Must be above 0."] })).toBe(false);
    expect(canSubmit({ fields: {}, summary: [] })).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { resourceNameSchema } from "./endpoint.ts";
import { isResourceName, namePrefixProblem } from "./resource-name.ts";

const messages = (name: string) => resourceNameSchema.safeParse(name).error?.issues.map((issue) => issue.message);

describe("SageMaker's endpoint name rule", () => {
  it("accepts 1-63 letters, digits and inner hyphens", () => {
    for (const name of ["a", "demo-1", "a--b", "x".repeat(63)]) {
      expect(isResourceName(name), name).toBe(true);
      expect(resourceNameSchema.safeParse(name).success, name).toBe(true);
    }
  });

  it("refuses a name longer than 63 characters even when the pattern alone would allow it, once, by its length", () => {
    const long = `a${"-".repeat(62)}b`;
    expect(long).toHaveLength(64);
    expect(/^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/.test(long)).toBe(true);
    expect(isResourceName(long)).toBe(false);
    expect(messages(long)).toEqual(["At most 63 characters; this one has 64."]);
    expect(messages("x".repeat(70))).toEqual(["At most 63 characters; this one has 70."]);
  });

  it("refuses empty names, edge hyphens and other characters, each with one message in plain words", () => {
    expect(messages("")).toEqual([
      "Give a name: 1-63 letters, digits and hyphens, starting and ending with a letter or digit.",
    ]);
    for (const name of ["-a", "a-", "a_b", "a b", "é"]) {
      expect(isResourceName(name), name).toBe(false);
      expect(messages(name), name).toEqual([
        "Only letters, digits and hyphens, starting and ending with a letter or digit.",
      ]);
    }
  });

  it("says the prefix the console's IAM policy allows and the length together", () => {
    expect(namePrefixProblem("demo", "dc-", 63)).toBe(
      'Must start with "dc-" (the prefix the console\'s IAM policy allows) and be at most 63 characters.',
    );
    expect(namePrefixProblem("dc-demo", "dc-", 63)).toBeNull();
    expect(namePrefixProblem("demo", null, 63)).toBeNull();
  });
});

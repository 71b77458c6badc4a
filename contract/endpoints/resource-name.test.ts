import { describe, expect, it } from "vitest";
import { resourceNameSchema } from "./endpoint.ts";
import { isResourceName, resourceNameRule } from "./resource-name.ts";

describe("SageMaker's endpoint name rule", () => {
  it("accepts 1-63 letters, digits and inner hyphens", () => {
    for (const name of ["a", "demo-1", "a--b", "x".repeat(63)]) {
      expect(isResourceName(name), name).toBe(true);
      expect(resourceNameSchema.safeParse(name).success, name).toBe(true);
    }
  });

  it("refuses a name longer than 63 characters even when the pattern alone would allow it", () => {
    const long = `a${"-".repeat(62)}b`;
    expect(long).toHaveLength(64);
    expect(/^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/.test(long)).toBe(true);
    expect(isResourceName(long)).toBe(false);
    expect(resourceNameSchema.safeParse(long).error?.issues[0]?.message).toBe(resourceNameRule);
  });

  it("refuses empty names, edge hyphens and other characters", () => {
    for (const name of ["", "-a", "a-", "a_b", "a b", "é"]) {
      expect(isResourceName(name), name).toBe(false);
      expect(resourceNameSchema.safeParse(name).success, name).toBe(false);
    }
  });
});

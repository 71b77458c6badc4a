import { describe, expect, it } from "vitest";
import { isManagedGroup, requireManagedGroup } from "./model-versions.ts";

describe("a model package group is the console's", () => {
  it("when its name starts with the prefix in the same case: IAM compares a registry ARN as the name is", () => {
    expect(isManagedGroup("dc-router", "dc-")).toBe(true);
    expect(isManagedGroup("dc-Router", "dc-")).toBe(true);
    expect(isManagedGroup("DC-router", "dc-")).toBe(false);
    expect(isManagedGroup("team-b-router", null)).toBe(true);
  });

  it("and another is refused before any AWS call, naming the prefix", () => {
    expect(() => requireManagedGroup("DC-router", "dc-")).toThrow(
      /group: DC-router is not managed by this console: it manages model package groups starting with dc-/,
    );
  });
});

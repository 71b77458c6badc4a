import { describe, expect, it } from "vitest";
import { latestAction } from "./latest-action.ts";

describe("the dataset panel's outcome", () => {
  it("is the last started action's only: a sample added after a refused upload hides the upload's error", () => {
    expect(latestAction({ upload: { submittedAt: 0 }, sample: { submittedAt: 0 } })).toBeNull();
    expect(latestAction({ upload: { submittedAt: 1_000 }, sample: { submittedAt: 0 } })).toBe("upload");
    expect(latestAction({ upload: { submittedAt: 1_000 }, sample: { submittedAt: 2_000 } })).toBe("sample");
    expect(latestAction({ upload: { submittedAt: 3_000 }, sample: { submittedAt: 2_000 } })).toBe("upload");
  });
});

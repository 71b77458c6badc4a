import { describe, expect, it } from "vitest";
import { afterRecordedDecision, approvalNoteProblem } from "./approval-note.ts";

describe("the approval card's note", () => {
  it("asks why when a decision is tried without a note", () => {
    expect(approvalNoteProblem({ text: " ", tried: true })).toBe(
      "Say why: the note is kept with the version and in the audit log.",
    );
  });

  it("asks nothing after a decision is recorded, though the note is empty again", () => {
    expect(approvalNoteProblem(afterRecordedDecision())).toBeUndefined();
  });
});

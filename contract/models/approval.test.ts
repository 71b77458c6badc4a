import { describe, expect, it } from "vitest";
import { approvalProblem, deployProblem, evaluationProblem } from "./approval.ts";

describe("the console's approval rule", () => {
  it("approves a pending or rejected version only with an evaluation attached", () => {
    expect(approvalProblem("PendingManualApproval", "Approved", false)).toMatch(/Attach an evaluation/);
    expect(approvalProblem("PendingManualApproval", "Approved", true)).toBeNull();
    expect(approvalProblem("Rejected", "Approved", true)).toBeNull();
  });

  it("rejects a pending version, or revokes an approved one, with or without an evaluation", () => {
    expect(approvalProblem("PendingManualApproval", "Rejected", false)).toBeNull();
    expect(approvalProblem("Approved", "Rejected", true)).toBeNull();
  });

  it("refuses the same decision twice in a row", () => {
    expect(approvalProblem("Approved", "Approved", true)).toBe("The version is already Approved.");
    expect(approvalProblem("Rejected", "Rejected", true)).toBe("The version is already Rejected.");
  });

  it("keeps an Approved version's evaluation, and deploys only Approved versions", () => {
    expect(evaluationProblem("Approved")).toMatch(/reject it first/);
    expect(evaluationProblem("PendingManualApproval")).toBeNull();
    expect(deployProblem("Approved")).toBeNull();
    expect(deployProblem("Rejected")).toMatch(/Rejected/);
    expect(deployProblem("PendingManualApproval")).toMatch(/PendingManualApproval/);
  });
});

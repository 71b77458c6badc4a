import type { ApprovalStatus } from "./model-registry.ts";

/**
 * The console's approval rule (SageMaker allows any status to follow any other): a version is approved only with an
 * evaluation attached, is never approved or rejected twice in a row, and never goes back to pending. An Approved
 * version may be rejected (revoked); a Rejected one approved after all. Null: allowed; else why not.
 */
export function approvalProblem(
  from: ApprovalStatus,
  to: Exclude<ApprovalStatus, "PendingManualApproval">,
  hasEvaluation: boolean,
): string | null {
  if (from === to) return `The version is already ${to}.`;
  if (to === "Approved" && !hasEvaluation) {
    return "Attach an evaluation run to the version before approving it: an approval says what it was judged on.";
  }
  return null;
}

/** Why a version may not be deployed, or null: only an Approved version is. */
export function deployProblem(status: ApprovalStatus): string | null {
  if (status === "Approved") return null;
  return status === "Rejected"
    ? "The version was Rejected; only an Approved version can be deployed."
    : "The version is waiting for approval (PendingManualApproval); only an Approved version can be deployed.";
}

/** Why an evaluation may not be attached now, or null: an Approved version keeps what it was approved on. */
export function evaluationProblem(status: ApprovalStatus): string | null {
  return status === "Approved"
    ? "The version is Approved on the evaluation it has; reject it first, or register a new version, to judge it on another."
    : null;
}

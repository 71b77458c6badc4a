/** The approval card's note, and whether the person tried to decide without one. */
export interface ApprovalNote {
  text: string;
  tried: boolean;
}

export const blankApprovalNote: ApprovalNote = { text: "", tried: false };

/** The note's problem, shown once a decision was tried without a note. */
export function approvalNoteProblem(note: ApprovalNote): string | undefined {
  return note.tried && !note.text.trim()
    ? "Say why: the note is kept with the version and in the audit log."
    : undefined;
}

/** After a decision is recorded the card starts afresh: an empty note is not a mistake until the next try. */
export const afterRecordedDecision = (): ApprovalNote => blankApprovalNote;

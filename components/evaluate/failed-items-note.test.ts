import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { EvaluationDetail } from "@/contract/evaluate/evaluations.ts";
import { FailedItemsNote } from "./failed-items-note.tsx";
import { RunStatusBadge } from "./run-status-badge.tsx";

type NoteRun = Pick<EvaluationDetail, "status" | "failedItems" | "results" | "batch">;

function run(status: NoteRun["status"], errors: Record<string, number>): NoteRun {
  const failedItems = Object.values(errors).reduce((sum, count) => sum + count, 0);
  return { status, failedItems, batch: null, results: [{ metrics: { errors } }] as NoteRun["results"] };
}

const note = (value: NoteRun) =>
  renderToStaticMarkup(createElement(FailedItemsNote, { run: value, retrying: false, onRetry: () => {} }));

describe("an evaluation's failed items", () => {
  it("are counted by kind apart from wrong answers, with a button that asks them again once the run has ended", () => {
    const html = note(run("completed", { busy: 80, timeout: 23 }));
    expect(html).toContain("103 item(s) got no answer");
    expect(html).toContain("busy 80, timeout 23");
    expect(html).toContain("not wrong answers");
    expect(html).toContain("Retry the failed items");
  });

  it("offer no retry while the run is still running", () => {
    expect(note(run("running", { busy: 2 }))).not.toContain("Retry the failed items");
  });

  it("show nothing when every item was answered", () => {
    expect(note(run("completed", {}))).toBe("");
  });

  it("make the run's badge read completed with failures, not completed", () => {
    const html = renderToStaticMarkup(createElement(RunStatusBadge, { outcome: "completed_with_failures" }));
    expect(html).toContain("completed with failures");
    expect(html).toContain("amber");
  });
});

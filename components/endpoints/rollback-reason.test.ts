import { describe, expect, it } from "vitest";
import { alarmReasonText, crossingText, latencyReasonInMs, rollbackCauseText } from "./rollback-reason.ts";

const at = "2026-12-07T10:00:30.000Z";
const crossed = (metric: string, statistic: string, [value, threshold]: [number, number], unit: string) => ({
  metric,
  statistic,
  comparison: ">",
  value,
  threshold,
  unit,
});

describe("a rollback's cause as the endpoint page words it", () => {
  it("names the person who stopped the update and when", () => {
    expect(rollbackCauseText({ kind: "stopped", by: "alice", at }, "UTC")).toEqual({
      title: "Last update stopped",
      text: expect.stringMatching(/^Stopped by alice at 2026-12-07 10:00:30; no alarm found a problem/),
    });
  });

  it("names the alarm, when it went to ALARM, and its latency datapoint against the threshold in ms", () => {
    const crossing = crossed("ModelLatency", "Average", [2512.345, 2000], "ms");
    expect(
      rollbackCauseText({ kind: "alarm", alarm: "dc-a-rollback-latency-average", at, crossing, reason: "" }, "UTC"),
    ).toEqual({
      title: "Last update rolled back",
      text: "Rolled back: alarm dc-a-rollback-latency-average went to ALARM at 2026-12-07 10:00:30 (ModelLatency average 2512.345 ms > threshold 2000 ms).",
    });
  });

  it("quotes the reason of an alarm set to ALARM by a call rather than by its metric", () => {
    const cause = {
      kind: "alarm",
      alarm: "ops-guard",
      at,
      crossing: null,
      reason: "Set by the on-call runbook",
    } as const;
    expect(rollbackCauseText(cause, "UTC").text).toBe(
      "Rolled back: alarm ops-guard went to ALARM at 2026-12-07 10:00:30 (Set by the on-call runbook).",
    );
  });

  it("gives SageMaker's FailureReason when neither a person nor an alarm went first", () => {
    expect(rollbackCauseText({ kind: "failed", reason: "The new fleet failed its health checks." })).toEqual({
      title: "Last update failed",
      text: "Failed: The new fleet failed its health checks.",
    });
  });

  it("words a count without a unit", () => {
    const crossing = crossed("Invocation5XXErrors", "Sum", [3, 0], "");
    expect(crossingText(crossing)).toBe("Invocation5XXErrors sum 3 > threshold 0");
  });
});

describe("a rollback alarm's reason", () => {
  it("quotes a latency alarm's datapoints and threshold in ms, as the form speaks", () => {
    const text = latencyReasonInMs(
      "Threshold Crossed: 1 out of the last 1 datapoints [2512345.0 (07/12/26 10:00:00)] was greater than the threshold (2000000.0)",
    );
    expect(text).toContain("[2512.345 ms (07/12/26 10:00:00)]");
    expect(text).toContain("the threshold (2000 ms)");
    expect(text).not.toContain("2000000");
  });

  it("names a person's abort as what set the alarm", () => {
    expect(alarmReasonText("dc-a-rollback-5xx", "Abort and roll back, asked from the console by alice")).toBe(
      "set to ALARM by an abort from the console, asked by alice",
    );
  });

  it("leaves another alarm's reason as CloudWatch wrote it", () => {
    const reason =
      "Threshold Crossed: 1 out of the last 1 datapoints [3.0 (07/12/26 10:00:00)] was greater than the threshold (0.0)";
    expect(alarmReasonText("dc-a-rollback-5xx", reason)).toBe(reason);
  });
});

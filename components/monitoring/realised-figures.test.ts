import { describe, expect, it } from "vitest";
import { accuracyText, delayText, labelRowsOf } from "./realised-figures.ts";

describe("realised figures as the Monitoring view writes them", () => {
  it("writes an accuracy with its interval and label count, or says there are no labels", () => {
    expect(accuracyText({ labelled: 400, correct: 300, accuracy: 0.75, lower: 0.7, upper: 0.8 })).toBe(
      "75.0% (95% 70.0–80.0%, 400 labels)",
    );
    expect(accuracyText({ labelled: 0, correct: 0, accuracy: null, lower: null, upper: null })).toBe("no labels");
  });

  it("writes a label delay in the largest unit above 1", () => {
    expect([delayText(42), delayText(90), delayText(5400), delayText(172_800)]).toEqual([
      "42 s",
      "1.5 min",
      "1.5 h",
      "2.0 d",
    ]);
  });

  it("reads label rows from JSON Lines or one JSON array, naming a line that is not JSON", () => {
    const row = { inferenceId: "a", label: "p1", labelledAt: "2026-12-07T10:00:00Z" };
    expect(labelRowsOf(`${JSON.stringify(row)}\n\n${JSON.stringify(row)}\n`)).toEqual([row, row]);
    expect(labelRowsOf(JSON.stringify([row]))).toEqual([row]);
    expect(() => labelRowsOf(`${JSON.stringify(row)}\n{oops`)).toThrow(/^Line 2 is not JSON/);
  });
});

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { plainIssueText } from "./plain-issues.ts";

const schema = z.strictObject({
  threads: z.number().int().min(1).max(256),
  share: z.number().positive().max(1),
  pools: z.array(z.string()).min(1).max(5),
  mode: z.enum(["cpu", "gpu"]),
  note: z.string().min(1),
  own: z.number().min(5, "at least five, as the schema says"),
});
const valid = { threads: 8, share: 0.5, pools: ["a"], mode: "cpu", note: "n", own: 5 };

function messages(input: unknown): Record<string, string> {
  const issues = schema.safeParse(input, { error: plainIssueText }).error?.issues ?? [];
  return Object.fromEntries(issues.map((issue) => [issue.path.join(".") || "(request)", issue.message]));
}

describe("plain words for a schema's own checks", () => {
  it("says a number's bounds, a whole number, an option and a missing field without zod's default text", () => {
    expect(messages({ ...valid, threads: 0, share: 0, pools: [], mode: "tpu", note: "" })).toEqual({
      threads: "Must be at least 1.",
      share: "Must be above 0.",
      pools: "Must be at least 1 item.",
      mode: "Must be one of: cpu, gpu.",
      note: "Required.",
    });
    expect(messages({ ...valid, threads: 1.5, share: 2, pools: ["a", "b", "c", "d", "e", "f"] })).toEqual({
      threads: "Must be a whole number.",
      share: "Must be at most 1.",
      pools: "Must be at most 5 items.",
    });
    expect(messages({ ...valid, threads: Number.NaN, extra: 1 })).toEqual({
      threads: "Enter a number.",
      "(request)": "Not a field of this request: extra.",
    });
    expect(messages({ ...valid, threads: undefined })).toEqual({ threads: "Required." });
  });

  it("leaves a message the schema gives itself as it is", () => {
    expect(messages({ ...valid, own: 1 })).toEqual({ own: "at least five, as the schema says" });
  });

  it("never says zod's default text for any of them", () => {
    const all = Object.values(messages({ threads: -3, share: "x", pools: "x", mode: 1, note: 2, own: "x", more: 1 }));
    expect(all.length).toBeGreaterThan(5);
    for (const message of all) expect(message).not.toMatch(/Too small|Too big|Invalid input|Invalid option|expected/);
  });
});

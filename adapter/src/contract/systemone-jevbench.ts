import { z } from "zod";
import type { SystemOneQuestion, SystemOneRequest } from "./systemone.ts";

/** One labelled decision of `jevbench.jsonl` (fields the conversion reads; others are kept by callers). */
export const jevBenchItemSchema = z.object({
  id: z.string().min(1),
  state: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]),
  question: z.string().min(1),
  options: z.array(z.object({ id: z.string().min(1), description: z.string() })).min(2),
  answer: z.string().min(1),
  type: z.enum(["choice", "noul", "score"]),
  category: z.string().optional(),
  tier: z.string().optional(),
});
export type JevBenchItem = z.infer<typeof jevBenchItemSchema>;

export interface SystemOneCase {
  request: SystemOneRequest;
  /** The key under `questions` (and `answers`) that holds the item's question. */
  questionId: string;
  /** The answer key the label set uses for the gold answer. */
  expected: string;
  /** Every answer key the item allows, in the item's order. */
  labels: string[];
}

const YES_NO = ["no", "yes"];

/** True when the options are exactly the levels "0", "1", ... in order. */
function isLevelScale(item: JevBenchItem): boolean {
  return item.options.every((o, i) => o.id === String(i));
}

function toQuestion(item: JevBenchItem): SystemOneQuestion {
  const ids = item.options.map((o) => o.id);
  const described = Object.fromEntries(item.options.map((o) => [o.id, o.description]));
  if (item.type === "noul" && ids.length === 2 && YES_NO.every((k) => ids.includes(k))) {
    return { type: "noul", instructions: item.question, criteria: { true: described.yes, false: described.no } };
  }
  // A score's levels are numbered from 0 by position (TypeSafe's Score); other option ids are asked as a choice.
  if (item.type === "score" && isLevelScale(item)) {
    return { type: "score", instructions: item.question, criteria: item.options.map((o) => o.description) };
  }
  return { type: "choice", instructions: item.question, criteria: described };
}

/**
 * A JevBench item as a `/v1/systemone` request with one question. A `noul` item whose options are not
 * exactly yes/no is asked as a `choice`, so every item's answer stays within its own label set.
 */
export function jevBenchToSystemOne(item: JevBenchItem): SystemOneCase {
  const question = toQuestion(item);
  const questionId = "decision";
  const labels = question.type === "noul" ? ["yes", "no"] : item.options.map((o) => o.id);
  return {
    request: { state: item.state, model: "jev-latest", questions: { [questionId]: question } },
    questionId,
    expected: item.answer,
    labels,
  };
}

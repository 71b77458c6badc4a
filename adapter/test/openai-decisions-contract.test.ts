import { describe, expect, it } from "vitest";
import {
  DECISIONS_MAX_QUESTIONS,
  decisionCreateSchema,
  decisionInputText,
  usesPromptCache,
} from "../src/contract/openai-decisions.ts";
import { describeIssue } from "../src/contract/systemone-errors.ts";

/** OpenAI's Decisions request as openai 3.63.0's `DecisionCreateParams` documents it, read without a model. */

const PREDICATE = { type: "predicate", instructions: "Did the lookup succeed?" };
const request = (fields: Record<string, unknown>) => ({ model: "gpt-6-luna", questions: [PREDICATE], ...fields });

function refusal(body: unknown): string {
  const parsed = decisionCreateSchema.safeParse(body);
  if (parsed.success) throw new Error("the request was accepted");
  return describeIssue(parsed.error.issues[0]!);
}

const TOOL_TURNS = [
  { role: "user", content: "Where is order 7?" },
  { type: "function_call", call_id: "c1", name: "find_order", arguments: '{"id":7}' },
  { type: "function_call_output", call_id: "c1", output: "shipped" },
  { type: "custom_tool_call", call_id: "c2", name: "track", input: "7" },
  { type: "custom_tool_call_output", call_id: "c2", output: [{ type: "input_text", text: "in transit" }] },
];

describe("tool calls and their outputs in the input", () => {
  it("are accepted when each output names a call of its kind, and read one per paragraph", () => {
    const parsed = decisionCreateSchema.parse(request({ input: TOOL_TURNS }));
    expect(decisionInputText(parsed.input).split("\n\n")).toEqual([
      "user: Where is order 7?",
      'function call find_order (c1): {"id":7}',
      "output of c1: shipped",
      "tool call track (c2): 7",
      "output of c2: in transit",
    ]);
  });

  it("refuses an output whose call_id names no call in the input", () => {
    const input = [TOOL_TURNS[0], { type: "function_call_output", call_id: "missing", output: "shipped" }];
    expect(refusal(request({ input }))).toBe(
      'input[1].call_id: must identify a function_call in the input with call_id "missing"',
    );
  });

  it("refuses an output that names a call of the other kind", () => {
    const input = [TOOL_TURNS[3], { type: "function_call_output", call_id: "c2", output: "x" }];
    expect(refusal(request({ input }))).toBe(
      'input[1].call_id: must identify a function_call in the input with call_id "c2"',
    );
  });
});

describe("questions", () => {
  it(`takes 1-${DECISIONS_MAX_QUESTIONS} questions`, () => {
    const asked = (count: number) => request({ input: "x", questions: Array.from({ length: count }, () => PREDICATE) });
    expect(decisionCreateSchema.safeParse(asked(DECISIONS_MAX_QUESTIONS)).success).toBe(true);
    expect(refusal(asked(DECISIONS_MAX_QUESTIONS + 1))).toBe("questions: must hold 1-400 questions");
    expect(refusal(asked(0))).toBe("questions: must hold 1-400 questions");
  });
});

describe("prompt caching", () => {
  const explicit = { prompt_cache_options: { mode: "explicit" } };
  const marked = (text: string) => ({ type: "input_text", text, prompt_cache_breakpoint: { mode: "explicit" } });
  const uses = (fields: Record<string, unknown>) => usesPromptCache(decisionCreateSchema.parse(request(fields)));

  it("is used by default and in implicit mode", () => {
    expect(uses({ input: "x" })).toBe(true);
    expect(uses({ input: "x", prompt_cache_options: { mode: "implicit", ttl: "30m" } })).toBe(true);
  });

  it("is not used in explicit mode without a breakpoint, as documented", () => {
    expect(uses({ input: "x", ...explicit })).toBe(false);
    expect(uses({ input: [{ role: "user", content: [{ type: "input_text", text: "x" }] }], ...explicit })).toBe(false);
  });

  it("is used in explicit mode once a message part or a tool output part marks a breakpoint", () => {
    expect(uses({ input: [{ role: "system", content: [marked("rules")] }], ...explicit })).toBe(true);
    const output = { type: "custom_tool_call_output", call_id: "c2", output: [marked("in transit")] };
    expect(uses({ input: [TOOL_TURNS[3], output], ...explicit })).toBe(true);
  });
});

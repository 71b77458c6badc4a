import { decisionCreateSchema, systemOneRequestSchema } from "@decision-console/adapter/contract";
import { describe, expect, it } from "vitest";
import { bodyFromDraft, draftFromBody, moveItem } from "./decision-draft.ts";
import { examples } from "./examples.ts";

const decision = {
  id: "route",
  state: "ticket text",
  question: "Which team?",
  options: [
    { id: "billing", description: "money" },
    { id: "tech", description: "bugs" },
  ],
};

describe("decision draft", () => {
  it("round-trips a single decision through the form", () => {
    const draft = draftFromBody({ decision });
    expect(draft).not.toBeNull();
    expect(bodyFromDraft(draft!)).toEqual({ decision });
  });

  it("sends several questions on one state as shared decisions", () => {
    const draft = draftFromBody({ decision })!;
    draft.questions.push({ ...draft.questions[0]!, key: "second", id: "route-2" });
    const body = bodyFromDraft(draft) as { decisions: { id: string; state: unknown }[] };
    expect(body.decisions.map((d) => d.id)).toEqual(["route", "route-2"]);
    expect(new Set(body.decisions.map((d) => d.state)).size).toBe(1);
  });

  it("sends a JSON state as an object, and says so when it does not parse", () => {
    const draft = draftFromBody({ decision: { ...decision, state: { b: 1, a: [2] } } })!;
    expect(draft.stateIsJson).toBe(true);
    expect((bodyFromDraft(draft) as { decision: { state: unknown } }).decision.state).toEqual({ b: 1, a: [2] });
    expect(() => bodyFromDraft({ ...draft, state: "{not json" })).toThrow(/does not parse/);
  });

  it("leaves bodies the form cannot show (systemone, OpenAI decisions, chat) to the JSON tab", () => {
    expect(draftFromBody({ state: "s", questions: {} })).toBeNull();
    expect(draftFromBody({ input: "s", questions: [] })).toBeNull();
    expect(draftFromBody({ messages: [] })).toBeNull();
  });

  it("reorders an option one place and ignores moves past either end", () => {
    expect(moveItem(["a", "b", "c"], 2, -1)).toEqual(["a", "c", "b"]);
    expect(moveItem(["a", "b", "c"], 0, -1)).toEqual(["a", "b", "c"]);
    expect(moveItem(["a", "b", "c"], 2, 1)).toEqual(["a", "b", "c"]);
  });

  it("offers the five saved use cases, a systemone and an OpenAI decisions example, each a valid starting body", () => {
    expect(examples.map((example) => example.key)).toEqual([
      "routing",
      "priority",
      "policy",
      "extraction",
      "agent",
      "systemone",
      "openai-decisions",
    ]);
    expect(systemOneRequestSchema.safeParse(examples.find((e) => e.key === "systemone")!.body).success).toBe(true);
    expect(decisionCreateSchema.safeParse(examples.find((e) => e.key === "openai-decisions")!.body).success).toBe(true);
    for (const example of examples.filter((e) => e.key !== "systemone" && e.key !== "openai-decisions")) {
      expect(bodyFromDraft(draftFromBody(example.body)!)).toEqual(example.body);
    }
  });
});

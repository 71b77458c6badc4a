import { describe, expect, it } from "vitest";
import { checkDecisions, decisionRequestSchema, parseDecisionEnvelope, renderState } from "../src/contract/index.ts";

const decision = (overrides: Record<string, unknown> = {}) => ({
  id: "d1",
  state: "A customer asks for a refund.",
  question: "Refund?",
  options: [
    { id: "yes", description: "Refund" },
    { id: "no", description: "Decline" },
  ],
  ...overrides,
});

const envelopeMessage = (payload: unknown) => {
  const parsed = parseDecisionEnvelope(payload, 8);
  return parsed.ok ? "ok" : parsed.message;
};

const fieldsMessage = (payload: unknown) => {
  const parsed = parseDecisionEnvelope(payload, 8);
  if (!parsed.ok) return parsed.message;
  const checked = checkDecisions(parsed.value);
  return checked.ok ? "ok" : checked.message;
};

describe("decision request envelope", () => {
  it("rejects a body that is not an object", () => {
    expect(envelopeMessage([1])).toBe("Request body must be a JSON object");
    expect(envelopeMessage("x")).toBe("Request body must be a JSON object");
  });
  it("lists unsupported top-level fields sorted, as SemIf does", () => {
    expect(envelopeMessage({ decision: decision(), zeta: 1, alpha: 2 })).toBe(
      "Unsupported request fields: ['alpha', 'zeta']",
    );
  });
  it("requires exactly one of decision or decisions", () => {
    expect(envelopeMessage({})).toBe("Request must contain exactly one of decision or decisions");
    expect(envelopeMessage({ decision: decision(), decisions: [decision()] })).toBe(
      "Request must contain exactly one of decision or decisions",
    );
  });
  it("requires decision to be an object and decisions a nonempty list of objects within the limit", () => {
    expect(envelopeMessage({ decision: [] })).toBe("Request must contain one decision object");
    expect(envelopeMessage({ decisions: [] })).toBe("Request must contain a nonempty decisions list");
    expect(envelopeMessage({ decisions: {} })).toBe("Request must contain a nonempty decisions list");
    expect(envelopeMessage({ decisions: Array.from({ length: 9 }, () => decision()) })).toBe(
      "decisions supports at most 8 items",
    );
    expect(envelopeMessage({ decisions: [decision(), 3] })).toBe("decisions must contain only decision objects");
  });
});

describe("decision fields", () => {
  it("accepts a valid single decision and ignores extra keys inside it", () => {
    expect(fieldsMessage({ decision: decision({ answer: "yes" }) })).toBe("ok");
  });
  it("names the field path of a bad id or question", () => {
    expect(fieldsMessage({ decisions: [decision(), decision({ id: "d2", question: "" })] })).toBe(
      "id and question must be nonempty strings: decisions[1]",
    );
  });
  it("enforces 2-255 options and unique option ids", () => {
    expect(fieldsMessage({ decision: decision({ options: [{ id: "a", description: "" }] }) })).toBe(
      "options must contain 2-255 entries: decision.options",
    );
    const options = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `o${i}`, description: "" }));
    expect(fieldsMessage({ decision: decision({ options: options(17) }) })).toBe("ok");
    expect(fieldsMessage({ decision: decision({ options: options(255) }) })).toBe("ok");
    expect(fieldsMessage({ decision: decision({ options: options(256) }) })).toBe(
      "options must contain 2-255 entries: decision.options",
    );
    expect(
      fieldsMessage({
        decision: decision({
          options: [
            { id: "a", description: "" },
            { id: "a", description: "" },
          ],
        }),
      }),
    ).toBe("Option IDs must be unique: decision.options[1].id");
  });
  it("requires one nonempty exact state and unique ids for shared decisions", () => {
    expect(fieldsMessage({ decisions: [decision(), decision({ id: "d2", state: "other" })] })).toBe(
      "Shared scoring requires one nonempty exact state",
    );
    expect(fieldsMessage({ decisions: [decision({ state: "" })] })).toBe(
      "Shared scoring requires one nonempty exact state",
    );
    expect(fieldsMessage({ decisions: [decision(), decision()] })).toBe("Decision IDs must be unique");
  });
  it("treats JSON-object states with the same content as the same state", () => {
    const a = decision({ state: { b: 1, a: [2, { y: 1, x: 0 }] } });
    const b = decision({ id: "d2", state: { a: [2, { x: 0, y: 1 }], b: 1 } });
    expect(fieldsMessage({ decisions: [a, b] })).toBe("ok");
    expect(renderState({ b: 1, a: "x" })).toBe('{"a":"x","b":1}');
  });
  it("rejects a JSON state nested deeper than 64 levels without exhausting the stack", () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(fieldsMessage({ decision: decision({ state: deep }) })).toBe(
      "state is nested more than 64 levels deep: decision.state",
    );
  });
  it("rejects a state that is neither a string nor JSON object/array", () => {
    expect(fieldsMessage({ decision: decision({ state: 5 }) })).toBe(
      "state must be a string or a JSON object or array: decision.state",
    );
  });
});

describe("zod request schema", () => {
  it("agrees with the checks on valid and unknown-key requests", () => {
    expect(decisionRequestSchema.safeParse({ decision: decision() }).success).toBe(true);
    expect(decisionRequestSchema.safeParse({ decision: decision(), extra: 1 }).success).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import {
  checkDecisions,
  decisionProblem,
  decisionRequestSchema,
  parseDecisionEnvelope,
  renderState,
} from "../src/contract/index.ts";
import { referenceCheck } from "./support/semif-reference.ts";

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

/** The adapter's two steps (envelope, then fields), as its decision route runs them. */
function adapterCheck(payload: unknown) {
  const envelope = parseDecisionEnvelope(payload, 8);
  if (!envelope.ok) return envelope;
  const checked = checkDecisions(envelope.value);
  return checked.ok ? { ok: true as const, decisions: checked.value } : checked;
}

const requestSchema = decisionRequestSchema(8);

/** The whole-request schema a client can run before it sends. */
function requestSchemaCheck(payload: unknown) {
  const parsed = requestSchema.safeParse(payload);
  if (!parsed.success) return { ok: false as const, message: decisionProblem(parsed.error) };
  return { ok: true as const, decisions: "decision" in parsed.data ? [parsed.data.decision] : parsed.data.decisions };
}

/** Deterministic pseudo-random numbers (mulberry32), so a failing input can be reproduced. */
function randomSource(seed: number): () => number {
  let t = seed;
  return () => {
    t = (t + 0x6d2b79f5) | 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

const nested = (depth: number): unknown => {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};
const opts = (ids: unknown[]) => ids.map((id) => ({ id, description: "" }));
const ABSENT = Symbol("absent");

const ids: unknown[] = ["d1", "d2", "", 5, null, ABSENT];
const questions: unknown[] = ["Refund?", "", 7, ABSENT];
const states: unknown[] = [
  "A customer asks for a refund.",
  "other state",
  "",
  { b: 1, a: [2, { y: 1, x: 0 }] },
  { a: [2, { x: 0, y: 1 }], b: 1 },
  [],
  JSON.parse('{"__proto__": {"x": 1}, "a": 2}'),
  nested(63),
  nested(64),
  nested(65),
  5,
  null,
  true,
  ABSENT,
];
const optionLists: unknown[] = [
  opts(["yes", "no"]),
  opts(["a"]),
  [],
  "yes,no",
  null,
  ABSENT,
  opts(["a", "a"]),
  [...opts(["a", "a"]), 5],
  [...opts(["a"]), 5, ...opts(["a"])],
  [{ id: "a" }, { id: "b", extra: true }],
  [{ id: "a", description: 5 }, { id: "a" }],
  [{ id: "a" }, { id: "a", description: 5 }],
  [{ id: "a" }, { id: "" }],
  [{ id: "a" }, { id: 3 }],
  [{ id: "a" }, ["b"]],
  [{ id: "a" }, null],
  [{ description: "no id" }, { id: "b" }],
];

function decisionOf(id: unknown, question: unknown, state: unknown, options: unknown): Record<string, unknown> {
  const fields: [string, unknown][] = [
    ["id", id],
    ["question", question],
    ["state", state],
    ["options", options],
    ["answer", "yes"],
  ];
  return Object.fromEntries(fields.filter(([, value]) => value !== ABSENT));
}

function singleDecisionCases(): unknown[] {
  const cases: unknown[] = [];
  for (const id of ids)
    for (const question of questions)
      for (const state of states)
        for (const options of optionLists) cases.push({ decision: decisionOf(id, question, state, options) });
  for (const count of [255, 256]) {
    const many = opts(Array.from({ length: count }, (_, i) => `o${i}`));
    const repeated = [...many.slice(0, 100), { id: "o7" }, ...many.slice(101)];
    for (const state of states) cases.push({ decision: decisionOf("d1", "q", state, many) });
    cases.push({ decision: decisionOf("d1", "q", "s", repeated) }, { decision: decisionOf("d1", "", "s", many) });
  }
  return cases;
}

function envelopeCases(): unknown[] {
  const good = decisionOf("d1", "q", "s", opts(["a", "b"]));
  const bodies: unknown[] = [null, [], [good], "x", 5, true, {}, { zeta: 1, alpha: 2, decision: good }];
  bodies.push(JSON.parse(`{"decision": ${JSON.stringify(good)}, "__proto__": 1}`));
  for (const permutations of [ABSENT, 0, 1, 16, 17, 1.5, "2", null, -1]) {
    const order = permutations === ABSENT ? {} : { permutations };
    bodies.push({ decision: good, ...order }, { decisions: [good], ...order }, { ...order });
    bodies.push(
      { decision: [], ...order },
      { decisions: [], ...order },
      { decision: good, decisions: [good], ...order },
    );
  }
  for (const decisions of [{}, "x", null, [good, 3], [3, good], Array.from({ length: 9 }, () => good)]) {
    bodies.push({ decisions });
  }
  bodies.push(
    { decision: null },
    { decision: "x" },
    { decisions: Array.from({ length: 8 }, (_, i) => ({ ...good, id: `d${i}` })) },
  );
  return bodies;
}

function sharedDecisionCases(count: number): unknown[] {
  const random = randomSource(20261201);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const common = ["d1", "d2", "d3", "d4"];
  const cases: unknown[] = [];
  for (let n = 0; n < count; n++) {
    const size = 1 + Math.floor(random() * 9);
    const sharedState = pick(states.slice(0, 7));
    const decisions = Array.from({ length: size }, () => {
      // Mostly well-formed decisions on one state, so the shared rules are reached; sometimes a bad field anywhere.
      const wild = random() < 0.25;
      return decisionOf(
        wild ? pick(ids) : pick(common),
        wild ? pick(questions) : "q",
        random() < 0.15 ? pick(states) : sharedState,
        wild ? pick(optionLists) : pick(optionLists.slice(0, 1).concat(optionLists.slice(8, 9))),
      );
    });
    cases.push({ decisions });
  }
  return cases;
}

describe("one schema, SemIf's checks", () => {
  const cases = [...envelopeCases(), ...singleDecisionCases(), ...sharedDecisionCases(3000)];

  it("covers every outcome: acceptance and each of SemIf's messages", () => {
    const outcomes = new Set(
      cases.map((payload) => {
        const result = referenceCheck(payload, 8);
        return result.ok ? "ok" : result.message.replace(/: \[.*\]$/, ": [...]").replace(/: decisions?\b.*$/, "");
      }),
    );
    expect([...outcomes].sort()).toEqual(
      [
        "Decision IDs must be unique",
        "Option IDs must be unique",
        "Request body must be a JSON object",
        "Request must contain a nonempty decisions list",
        "Request must contain exactly one of decision or decisions",
        "Request must contain one decision object",
        "Shared scoring requires one nonempty exact state",
        "Unsupported request fields: [...]",
        "decisions must contain only decision objects",
        "decisions supports at most 8 items",
        "each option must be an object with a nonempty string id",
        "id and question must be nonempty strings",
        "ok",
        "option description must be a string",
        "options must contain 2-255 entries",
        "permutations must be an integer from 1 to 16",
        "state is nested more than 64 levels deep",
        "state must be a string or a JSON object or array",
      ].sort(),
    );
  });

  it(`gives the reference's message and field path, or its accepted decisions, for each of ${cases.length} requests`, () => {
    const disagreements = cases.flatMap((payload) => {
      const want = referenceCheck(payload, 8);
      const got = adapterCheck(payload);
      return JSON.stringify(got) === JSON.stringify(want) ? [] : [{ payload, want, got }];
    });
    expect(disagreements.slice(0, 3)).toEqual([]);
  });

  it("the whole-request schema and the adapter's two steps answer alike", () => {
    const disagreements = cases.filter(
      (payload) => JSON.stringify(requestSchemaCheck(payload)) !== JSON.stringify(adapterCheck(payload)),
    );
    expect(disagreements.slice(0, 3)).toEqual([]);
  });

  it("keeps a JSON state as sent, every key included", () => {
    const state = JSON.parse('{"__proto__": {"x": 1}, "a": 2}');
    const checked = adapterCheck({ decision: decisionOf("d1", "q", state, opts(["a", "b"])) });
    expect(checked.ok && renderState((checked.decisions[0] as { state: Record<string, unknown> }).state)).toBe(
      '{"__proto__":{"x":1},"a":2}',
    );
  });
});

import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  answerConfidence,
  jevBenchItemSchema,
  jevBenchToSystemOne,
  parseSystemOneRequest,
  questionLabels,
  systemOneRequestSchema,
} from "../src/contract/index.ts";

const JEVBENCH = fileURLToPath(new URL("../../../shared/bench/jevbench.jsonl", import.meta.url));
const haveJevBench = existsSync(JEVBENCH);
if (!haveJevBench) console.warn(`skipping JevBench conversion tests: ${JEVBENCH} not found (no ../shared checkout)`);

/** The first problem as `field.path: msg`, or "ok". */
const message = (body: unknown) => {
  const parsed = parseSystemOneRequest(body);
  if (parsed.ok) return "ok";
  const { loc, msg } = parsed.detail[0]!;
  return `${loc.slice(1).join(".") || "body"}: ${msg}`;
};

const request = (questions: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  state: "A customer was charged twice.",
  model: "jev-latest",
  questions,
  ...extra,
});

describe("systemone request validation", () => {
  it("accepts the three question types of a Jev client", () => {
    expect(
      message(
        request({
          refund: { type: "noul", instructions: "Refund asked?" },
          team: { type: "choice", instructions: "Which team?", criteria: { billing: "money", eng: null } },
          sev: { type: "score", instructions: "How severe?", criteria: ["minor", "blocked"] },
        }),
      ),
    ).toBe("ok");
  });

  it("accepts object and array states", () => {
    expect(message({ ...request({ q: { type: "noul", instructions: "x" } }), state: { ticket: "t" } })).toBe("ok");
    expect(message({ ...request({ q: { type: "noul", instructions: "x" } }), state: ["a", "b"] })).toBe("ok");
  });

  it("names the offending field", () => {
    expect(message([])).toBe("body: must be a JSON object");
    expect(message({ ...request({ q: { type: "noul", instructions: "x" } }), state: 3 })).toBe(
      "state: must be a string, an object or an array",
    );
    expect(message(request({}))).toBe("questions: must contain at least one question");
    expect(message(request({ team: { type: "vote", instructions: "x" } }))).toBe(
      "questions.team.type: must be one of noul, choice, score",
    );
    expect(message(request({ team: { type: "choice", instructions: "x", criteria: { only: null } } }))).toBe(
      "questions.team.criteria: must hold 2-255 choices",
    );
    expect(message(request({ team: { type: "choice", instructions: "x", criteria: ["a", "b"] } }))).toBe(
      "questions.team.criteria: must be an object of {choice name: description}",
    );
    expect(message(request({ q: { type: "noul", instructions: "x" } }, { x_permutations: 0 }))).toMatch(
      /^x_permutations: /,
    );
    expect(message({ state: "s", questions: { q: { type: "noul", instructions: "x" } } })).toBe(
      "model: Field required",
    );
  });

  it("takes structured instructions and descriptions: strings, objects, arrays and null descriptions", () => {
    expect(
      message(
        request({
          dup: { type: "noul", instructions: { question: "Same as `other`?", other: { name: "Ann" } } },
          team: { type: "choice", instructions: ["Which team?"], criteria: { a: { x: 1 }, b: ["y"], c: null } },
          size: { type: "score", criteria: [{ level: "small" }, ["large"]] },
        }),
      ),
    ).toBe("ok");
  });

  it("takes a noul question without instructions only when its criteria describe an outcome", () => {
    expect(message(request({ q: { type: "noul", criteria: { false: "Legitimate mail" } } }))).toBe("ok");
    expect(message(request({ q: { type: "noul" } }))).toBe(
      "questions.q.instructions: is required unless criteria describe the true or the false outcome",
    );
  });

  it("refuses score criteria given as a map: levels are a list, numbered by position", () => {
    expect(message(request({ s: { type: "score", instructions: "x", criteria: { "0": "low", "1": "high" } } }))).toBe(
      "questions.s.criteria: must be a list of level descriptions, lowest first",
    );
  });

  it("allows 2-255 choices and 2-10 score levels", () => {
    const names = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`c${i}`, `choice ${i}`]));
    const levels = (n: number) => Array.from({ length: n }, (_, i) => `level ${i}`);
    expect(message(request({ c: { type: "choice", instructions: "x", criteria: names(255) } }))).toBe("ok");
    expect(message(request({ c: { type: "choice", instructions: "x", criteria: names(256) } }))).toBe(
      "questions.c.criteria: must hold 2-255 choices",
    );
    expect(message(request({ s: { type: "score", instructions: "x", criteria: levels(10) } }))).toBe("ok");
    expect(message(request({ s: { type: "score", instructions: "x", criteria: levels(11) } }))).toBe(
      "questions.s.criteria: must hold 2-10 levels",
    );
    expect(message(request({ s: { type: "score", instructions: "x", criteria: levels(1) } }))).toBe(
      "questions.s.criteria: must hold 2-10 levels",
    );
    expect(message(request({ c: { type: "choice", instructions: "x", criteria: names(1) } }))).toBe(
      "questions.c.criteria: must hold 2-255 choices",
    );
  });

  it("ignores top-level fields the OpenAPI document does not define, as its models do", () => {
    const extra = { metadata: { trace: "t-1" }, temperature: 0 };
    expect(message(request({ q: { type: "noul", instructions: "x" } }, extra))).toBe("ok");
  });
});

describe("question labels", () => {
  it("gives yes then no for noul, with descriptions from the true/false criteria", () => {
    const parsed = systemOneRequestSchema.parse(
      request({ q: { type: "noul", instructions: "x", criteria: { true: "Charged", false: "Not charged" } } }),
    );
    expect(questionLabels(parsed.questions.q!)).toEqual([
      { key: "yes", description: "Charged" },
      { key: "no", description: "Not charged" },
    ]);
  });

  it("numbers score levels from 0 when criteria are a list", () => {
    const parsed = systemOneRequestSchema.parse(
      request({ s: { type: "score", instructions: "x", criteria: ["calm", "angry", "furious"] } }),
    );
    expect(questionLabels(parsed.questions.s!).map((l) => l.key)).toEqual(["0", "1", "2"]);
  });
});

describe("answer confidence", () => {
  it("is 0 for a uniform answer and 1 for a certain one", () => {
    expect(answerConfidence([0.25, 0.25, 0.25, 0.25])).toBeCloseTo(0, 12);
    expect(answerConfidence([0, 1, 0])).toBe(1);
  });
  it("follows (p_max - 1/K) / (1 - 1/K)", () => {
    expect(answerConfidence([0.88, 0.12])).toBeCloseTo(0.76, 12);
    expect(answerConfidence([0.5, 0.3, 0.2])).toBeCloseTo((0.5 - 1 / 3) / (2 / 3), 12);
  });
});

describe.skipIf(!haveJevBench)("JevBench as systemone requests", () => {
  const items = haveJevBench
    ? readFileSync(JEVBENCH, "utf8")
        .split("\n")
        .filter((line) => line.trim())
        .map((line) => jevBenchItemSchema.parse(JSON.parse(line)))
    : [];

  it("converts all 231 items to valid requests whose labels are the item's own", () => {
    expect(items).toHaveLength(231);
    for (const item of items) {
      const converted = jevBenchToSystemOne(item);
      const parsed = systemOneRequestSchema.parse(converted.request);
      const question = parsed.questions[converted.questionId]!;
      expect(question.type).toBe(item.type);
      const keys = questionLabels(question).map((l) => l.key);
      expect(new Set(keys)).toEqual(new Set(item.options.map((o) => o.id)));
      expect(keys).toContain(converted.expected);
    }
  });
});

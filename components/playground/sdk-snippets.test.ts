import { describe, expect, it } from "vitest";
import { pythonLiteral, sdkSnippet } from "./sdk-snippets.ts";

/** tests/integration/gateway.model.test.ts runs these snippets as shown against a real gateway and adapter. */
describe("the gateway SDK snippets' text", () => {
  it("writes JSON as Python: None, True, False, nested and indented", () => {
    expect(pythonLiteral({ a: null, b: [true, false], c: 'x\n"y"', d: 1.5, e: {} }, "")).toBe(
      '{\n    "a": None,\n    "b": [\n        True,\n        False,\n    ],\n    "c": "x\\n\\"y\\"",\n    "d": 1.5,\n    "e": {},\n}',
    );
  });

  it("calls typesafe-sdk's system_one at the console's origin with the endpoint as the model", () => {
    const text = sdkSnippet("typesafe-python", "https://console.example.com", "dc-a", {
      model: "jev-latest",
      state: "s",
      questions: { q: { type: "noul", instructions: "Is it?" } },
      x_permutations: 2,
    });
    expect(text).toContain(
      'TypeSafeClient(api_key=os.environ["DECISION_KEY"], base_url="https://console.example.com")',
    );
    expect(text).toContain('    model="dc-a",\n');
    expect(text).not.toContain("jev-latest");
    expect(text).toContain('extra_body={\n        "x_permutations": 2,\n    },');
  });

  it("calls openai's decisions.create at the console's /v1, keyword arguments in Python, the body in TypeScript", () => {
    const body = { model: "m", input: "x", questions: [{ type: "predicate", instructions: "Is it?" }] };
    const python = sdkSnippet("openai-python", "http://127.0.0.1:3000", "dc-a", body);
    expect(python).toContain('openai.OpenAI(api_key=os.environ["DECISION_KEY"], base_url="http://127.0.0.1:3000/v1")');
    expect(python).toContain('decision = client.decisions.create(\n    model="dc-a",\n    input="x",\n    questions=[');
    expect(python).not.toContain("extra_body");
    const typescript = sdkSnippet("openai-typescript", "http://127.0.0.1:3000", "dc-a", body);
    expect(typescript).toContain(
      'new OpenAI({ apiKey: process.env.DECISION_KEY, baseURL: "http://127.0.0.1:3000/v1" })',
    );
    expect(typescript).toContain('"model": "dc-a"');
  });
});

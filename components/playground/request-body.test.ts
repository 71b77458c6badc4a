import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { draftFromBody } from "./decision-draft.ts";
import { examples } from "./examples.ts";
import { lastRunShown, requestBodyOf } from "./request-body.ts";
import { SnippetPanel } from "./snippet-panel.tsx";

const example = examples[0]?.body ?? {};
const draft = draftFromBody(example);
if (!draft) throw new Error("the first example is a decision form");
const asDecision = { protocol: "decision", model: "dc-a" } as const;

describe("the playground's request", () => {
  it("is the body the editor holds, or why there is none", () => {
    expect(requestBodyOf("json", draft, JSON.stringify(example), asDecision)).toEqual({ body: example, problem: null });
    expect(requestBodyOf("form", draft, "not read", asDecision).body).toEqual(expect.any(Object));
    const broken = requestBodyOf("json", draft, '{"decision": ', asDecision);
    expect(broken.body).toBeNull();
    expect(broken.problem).toMatch(/^The request JSON does not parse: /);
    expect(requestBodyOf("json", draft, "[1]", asDecision)).toEqual({
      body: null,
      problem: "The request must be a JSON object.",
    });
  });

  it("shows no snippet of another body while the JSON does not parse, but says why", () => {
    const html = renderToStaticMarkup(
      createElement(SnippetPanel, {
        endpoint: "dc-a",
        body: null,
        protocol: null,
        problem: "The request JSON does not parse: Unexpected end of JSON input",
        asyncInference: null,
      }),
    );
    expect(html).toContain("No snippet while the request is not valid: The request JSON does not parse");
    expect(html).not.toContain("const body = {}");
    expect(html).not.toContain("Copy snippet");
    const valid = renderToStaticMarkup(
      createElement(SnippetPanel, { endpoint: "dc-a", body: example, protocol: "decision", asyncInference: null }),
    );
    expect(valid).toContain("InvokeEndpointCommand");
  });

  it("never shows an earlier request's failure or answer beside a body that could not be sent", () => {
    const failed = { error: new Error("request failed"), data: undefined };
    expect(lastRunShown("The request JSON does not parse: x", failed)).toEqual({
      bodyProblem: "The request JSON does not parse: x",
      error: null,
      data: undefined,
    });
    expect(lastRunShown(null, failed)).toEqual({ bodyProblem: null, ...failed });
    expect(lastRunShown("bad", { error: null, data: { answer: 1 } }).data).toBeUndefined();
  });
});

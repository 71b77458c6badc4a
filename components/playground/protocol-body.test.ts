import { decisionCreateSchema, decisionInputText, systemOneRequestSchema } from "@decision-console/adapter/contract";
import { describe, expect, it } from "vitest";
import { bodyFromDraft, draftFromBody } from "./decision-draft.ts";
import { examples } from "./examples.ts";
import { bodyFromDraftAs, draftFromBodyOf, protocolOfBody } from "./protocol-body.ts";

const formExamples = examples.flatMap((example) => {
  const draft = draftFromBody(example.body);
  return draft ? [{ key: example.key, draft }] : [];
});

const routing = draftFromBody(examples.find((example) => example.key === "routing")!.body)!;
const extraction = draftFromBody(examples.find((example) => example.key === "extraction")!.body)!;

describe("the playground's form in each protocol", () => {
  it("is a System One request the adapter's schema accepts, each question a choice among its options", () => {
    expect(formExamples.length).toBeGreaterThan(3);
    for (const { key, draft } of formExamples) {
      const body = bodyFromDraftAs("systemone", draft, "dc-a");
      expect(systemOneRequestSchema.safeParse(body).success, key).toBe(true);
      expect(protocolOfBody(body), key).toBe("systemone");
    }
    expect(bodyFromDraftAs("systemone", routing, "dc-a")).toEqual({
      model: "dc-a",
      state: routing.state,
      questions: {
        "route-ticket": {
          type: "choice",
          instructions: "Which team should handle this ticket?",
          criteria: {
            billing: "Charges, invoices, refunds",
            technical: "Bugs, outages, errors in the product",
            account: "Login, profile, account settings",
            sales: "Plans, pricing questions, upgrades",
          },
        },
      },
    });
  });

  it("is an OpenAI Decisions request the adapter's schema accepts, questions in the form's order, named by id", () => {
    for (const { key, draft } of formExamples) {
      const body = bodyFromDraftAs("openai-decisions", draft, "dc-a");
      expect(decisionCreateSchema.safeParse(body).success, key).toBe(true);
      expect(protocolOfBody(body), key).toBe("openai-decisions");
    }
    const body = bodyFromDraftAs("openai-decisions", extraction, "dc-a") as {
      model: string;
      questions: { name: string; choices: { value: string }[] }[];
    };
    expect(body.model).toBe("dc-a");
    expect(body.questions.map((question) => question.name)).toEqual(extraction.questions.map((q) => q.id));
    expect(body.questions[0]?.choices.map((choice) => choice.value)).toEqual(
      extraction.questions[0]?.options.map((option) => option.id),
    );
  });

  it("is the decision body as before in the decision protocol", () => {
    for (const { draft } of formExamples) {
      expect(bodyFromDraftAs("decision", draft, "dc-a")).toEqual(bodyFromDraft(draft));
    }
  });

  it("sends a JSON state as System One's structured state and as OpenAI's input_json part", () => {
    const draft = { ...routing, state: '{"ticket": "VPN down", "tier": 2}', stateIsJson: true };
    const systemOne = bodyFromDraftAs("systemone", draft, "dc-a");
    expect(systemOne.state).toEqual({ ticket: "VPN down", tier: 2 });
    const openAi = bodyFromDraftAs("openai-decisions", draft, "dc-a");
    expect(openAi.input).toEqual([
      { role: "user", content: [{ type: "input_json", data: { ticket: "VPN down", tier: 2 } }] },
    ]);
    const list = bodyFromDraftAs("openai-decisions", { ...draft, state: "[1, 2]" }, "dc-a");
    expect(decisionInputText(list.input as string)).toBe("[1,2]");
  });

  it("refuses, in words, two questions with one id in System One, which keys answers by id", () => {
    const twice = { ...extraction, questions: [extraction.questions[0]!, extraction.questions[0]!] };
    expect(() => bodyFromDraftAs("systemone", twice, "dc-a")).toThrow(
      `System One keys its questions by id: the id "${extraction.questions[0]!.id}" is used twice.`,
    );
  });

  it("reads each protocol's body back into the same form, so the JSON editor and the form stay one request", () => {
    for (const protocol of ["decision", "systemone", "openai-decisions"] as const) {
      for (const { key, draft } of formExamples) {
        const body = bodyFromDraftAs(protocol, draft, "dc-a");
        const read = draftFromBodyOf(body);
        expect(read?.protocol, key).toBe(protocol);
        expect(bodyFromDraftAs(protocol, read!.draft!, "dc-a"), `${protocol} ${key}`).toEqual(body);
      }
    }
  });

  it("leaves to the JSON editor the bodies the form cannot show, and knows no protocol for chat", () => {
    const systemOne = examples.find((example) => example.key === "systemone")!.body;
    expect(draftFromBodyOf(systemOne)).toEqual({ protocol: "systemone", draft: null });
    const openAi = { model: "m", input: "x", questions: [{ type: "predicate", instructions: "Is it?" }] };
    expect(draftFromBodyOf(openAi)).toEqual({ protocol: "openai-decisions", draft: null });
    expect(draftFromBodyOf({ messages: [] })).toBeNull();
  });
});

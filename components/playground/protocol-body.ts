import type { Decision } from "@decision-console/adapter/contract";
import { askedFor } from "./answer-shape.ts";
import { type DecisionDraft, decisionsFromDraft, draftFromBody, draftOf } from "./decision-draft.ts";

/** The request protocols the container serves for decisions (the adapter routes a body by its shape). */
export type RequestProtocol = "decision" | "systemone" | "openai-decisions";

export const requestProtocols: { key: RequestProtocol; label: string }[] = [
  { key: "decision", label: "Decision (SemIf)" },
  { key: "systemone", label: "System One (TypeSafe)" },
  { key: "openai-decisions", label: "OpenAI Decisions" },
];

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** OpenAI's `input_json` part takes an object or a list of objects; any other JSON state is sent as its text. */
function openAiInput(state: unknown): unknown {
  if (typeof state === "string") return state;
  const data = Array.isArray(state) && state.every(isObject) ? state : isObject(state) ? state : null;
  if (data === null) return JSON.stringify(state);
  return [{ role: "user", content: [{ type: "input_json", data }] }];
}

function systemOneBody(decisions: Decision[], model: string): Json {
  const ids = decisions.map((decision) => decision.id);
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated !== undefined) {
    throw new Error(`System One keys its questions by id: the id "${repeated}" is used twice.`);
  }
  return {
    model,
    state: decisions[0]?.state ?? "",
    questions: Object.fromEntries(
      decisions.map((decision) => [
        decision.id,
        {
          type: "choice",
          instructions: decision.question,
          criteria: Object.fromEntries(decision.options.map((option) => [option.id, option.description || null])),
        },
      ]),
    ),
  };
}

function openAiBody(decisions: Decision[], model: string): Json {
  return {
    model,
    input: openAiInput(decisions[0]?.state ?? ""),
    questions: decisions.map((decision) => ({
      type: "choice",
      name: decision.id,
      instructions: decision.question,
      choices: decision.options.map((option) =>
        option.description ? { value: option.id, description: option.description } : { value: option.id },
      ),
    })),
  };
}

/**
 * The form's content as the protocol's request body: each question a choice among its options, the state shared.
 * `model` is the endpoint's name, which the gateway routes by (the container answers with the model it serves).
 * Throws on a draft the protocol cannot carry.
 */
export function bodyFromDraftAs(protocol: RequestProtocol, draft: DecisionDraft, model: string): Json {
  const decisions = decisionsFromDraft(draft);
  if (protocol === "systemone") return systemOneBody(decisions, model);
  if (protocol === "openai-decisions") return openAiBody(decisions, model);
  return decisions.length === 1 ? { decision: decisions[0] } : { decisions };
}

/** The protocol a body is sent in, by the adapter's own dispatch; null for chat and bodies of no known kind. */
export function protocolOfBody(body: Json): RequestProtocol | null {
  const kind = askedFor(body);
  if (kind === "single" || kind === "shared") return "decision";
  return kind === "systemone" || kind === "openai-decisions" ? kind : null;
}

type Option = { id: string; description: string };

/** A System One body of choice questions with text instructions and descriptions, as the form shows it. */
function draftFromSystemOne(body: Json): DecisionDraft | null {
  if (!isObject(body.questions) || body.state === undefined) return null;
  const questions = [];
  for (const [id, question] of Object.entries(body.questions)) {
    if (!isObject(question) || question.type !== "choice" || typeof question.instructions !== "string") return null;
    if (!isObject(question.criteria)) return null;
    const options: Option[] = [];
    for (const [option, description] of Object.entries(question.criteria)) {
      if (description !== null && typeof description !== "string") return null;
      options.push({ id: option, description: description ?? "" });
    }
    questions.push({ id, question: question.instructions, options });
  }
  return questions.length > 0 ? draftOf(body.state, questions) : null;
}

/** The state an OpenAI input stands for: its text, or the data of the one `input_json` part the form sends. */
function stateOfInput(input: unknown): unknown {
  if (typeof input === "string") return input;
  if (!Array.isArray(input) || input.length !== 1 || !isObject(input[0])) return undefined;
  const { role, content } = input[0];
  if (role !== "user" || !Array.isArray(content) || content.length !== 1 || !isObject(content[0])) return undefined;
  return content[0].type === "input_json" ? content[0].data : undefined;
}

/** An OpenAI Decisions body of choice questions with text instructions and text values, as the form shows it. */
function draftFromOpenAi(body: Json): DecisionDraft | null {
  const state = stateOfInput(body.input);
  if (state === undefined || !Array.isArray(body.questions)) return null;
  const questions = [];
  for (const [index, question] of body.questions.entries()) {
    if (!isObject(question) || question.type !== "choice" || typeof question.instructions !== "string") return null;
    if (!Array.isArray(question.choices)) return null;
    const options: Option[] = [];
    for (const choice of question.choices) {
      if (!isObject(choice) || typeof choice.value !== "string") return null;
      options.push({ id: choice.value, description: typeof choice.description === "string" ? choice.description : "" });
    }
    const id = typeof question.name === "string" ? question.name : `question-${index + 1}`;
    questions.push({ id, question: question.instructions, options });
  }
  return questions.length > 0 ? draftOf(state, questions) : null;
}

/** A body's protocol and its form draft (null when the form cannot show it), or null for a body of no protocol. */
export function draftFromBodyOf(body: Json): { protocol: RequestProtocol; draft: DecisionDraft | null } | null {
  const protocol = protocolOfBody(body);
  if (protocol === null) return null;
  const draft =
    protocol === "systemone"
      ? draftFromSystemOne(body)
      : protocol === "openai-decisions"
        ? draftFromOpenAi(body)
        : draftFromBody(body);
  return { protocol, draft };
}

/**
 * The playground's body sent through the console's decision gateway (docs/gateway.md) with the official SDK of its
 * protocol: TypeSafe's `typesafe-sdk` for System One, OpenAI's `openai` (Python and npm) for OpenAI Decisions. The
 * key comes from `DECISION_KEY`, `model` is the endpoint's name. Each prints the SDK's answer as one JSON document
 * on stdout and nothing else, as the InvokeEndpoint snippets do.
 */
export type SdkLanguage = "typesafe-python" | "openai-python" | "openai-typescript";

export const GATEWAY_KEY_VARIABLE = "DECISION_KEY";

/** The parameters `decisions.create` names in both `openai` SDKs; anything else goes in `extra_body`. */
const OPENAI_PARAMETERS = new Set([
  "input",
  "questions",
  "prompt_cache_key",
  "prompt_cache_options",
  "safety_identifier",
]);

/** A JSON value as Python source: JSON's strings, numbers and nesting, with None, True and False. */
export function pythonLiteral(value: unknown, indent = ""): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value !== "object") return JSON.stringify(value);
  const inner = `${indent}    `;
  const entries = Array.isArray(value)
    ? value.map((item) => pythonLiteral(item, inner))
    : Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${pythonLiteral(item, inner)}`);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) return `${open}${close}`;
  return `${open}\n${entries.map((entry) => `${inner}${entry},`).join("\n")}\n${indent}${close}`;
}

/** Keyword arguments, one a line, then `extra_body` with the body's keys the call does not name. */
function pythonArguments(named: [string, string][], extra: Record<string, unknown>): string {
  const lines = named.map(([name, source]) => `    ${name}=${source},`);
  if (Object.keys(extra).length > 0) lines.push(`    extra_body=${pythonLiteral(extra, "    ")},`);
  return lines.join("\n");
}

function split(body: Record<string, unknown>, named: (key: string) => boolean) {
  const kept: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === "model") continue;
    if (named(key)) kept[key] = value;
    else extra[key] = value;
  }
  return { kept, extra };
}

export function sdkSnippet(language: SdkLanguage, origin: string, endpoint: string, body: Record<string, unknown>) {
  if (language === "typesafe-python") {
    const { kept, extra } = split(body, (key) => key === "state" || key === "questions");
    return `import os
from typesafe_sdk import TypeSafeClient

client = TypeSafeClient(api_key=os.environ["${GATEWAY_KEY_VARIABLE}"], base_url="${origin}")
result = client.system_one(
${pythonArguments(
  [
    ["state", pythonLiteral(kept.state, "    ")],
    ["questions", pythonLiteral(kept.questions, "    ")],
    ["model", JSON.stringify(endpoint)],
  ],
  extra,
)}
)
print(result.model_dump_json(indent=2))
`;
  }
  if (language === "openai-python") {
    const { kept, extra } = split(body, (key) => OPENAI_PARAMETERS.has(key));
    const named: [string, string][] = [["model", JSON.stringify(endpoint)]];
    for (const [key, value] of Object.entries(kept)) named.push([key, pythonLiteral(value, "    ")]);
    return `import os
import openai

client = openai.OpenAI(api_key=os.environ["${GATEWAY_KEY_VARIABLE}"], base_url="${origin}/v1")
decision = client.decisions.create(
${pythonArguments(named, extra)}
)
print(decision.model_dump_json(indent=2))
`;
  }
  const request = JSON.stringify({ ...body, model: endpoint }, null, 2).replaceAll("\n", "\n  ");
  return `import OpenAI from "openai";

const client = new OpenAI({ apiKey: process.env.${GATEWAY_KEY_VARIABLE}, baseURL: "${origin}/v1" });

client.decisions
  .create(${request})
  .then((decision) => console.log(JSON.stringify(decision, null, 2)));
`;
}

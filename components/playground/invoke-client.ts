import { type InvokeResult, invokeErrorDetailsSchema } from "@/contract/invoke/invoke.ts";
import { ApiError, errorFromResponse } from "../api/api-error.ts";
import { fetchJson } from "../api/fetch-json.ts";

function invokePath(endpoint: string): string {
  return `/api/endpoints/${encodeURIComponent(endpoint)}/invoke`;
}

export function invoke(endpoint: string, body: Record<string, unknown>): Promise<InvokeResult> {
  return fetchJson<InvokeResult>(invokePath(endpoint), { method: "POST", body: { body, stream: false } });
}

/** Text of the OpenAI-style chunks in one server-sent-events block. */
export function deltasOf(block: string): string {
  let text = "";
  for (const line of block.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const data = line.slice(5).trim();
    if (data === "" || data === "[DONE]") continue;
    try {
      const chunk = JSON.parse(data) as { choices?: { delta?: { content?: string } }[] };
      text += chunk.choices?.[0]?.delta?.content ?? "";
    } catch {
      // A partial or non-JSON event carries no text for the transcript.
    }
  }
  return text;
}

/** Streams a chat completion through the console, calling `onText` with each piece as it arrives. */
export async function streamChat(
  endpoint: string,
  body: Record<string, unknown>,
  onText: (text: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  const path = invokePath(endpoint);
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ body: { ...body, stream: true }, stream: true }),
    signal,
  });
  if (!response.ok || !response.body) {
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    throw errorFromResponse(response.status, path, parsed);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    const blocks = buffer.split(/\r?\n\r?\n/);
    buffer = blocks.pop() ?? "";
    const text = blocks.map(deltasOf).join("");
    if (text) onText(text);
  }
  const rest = deltasOf(buffer);
  if (rest) onText(rest);
}

/** What went wrong with an invocation, in words. */
export function describeInvokeError(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const details = invokeErrorDetailsSchema.safeParse(error.details ?? {}).data ?? {};
  if (error.status === 503) {
    const retries = details.retries === undefined ? "" : ` after ${details.retries} retries`;
    return `The model stayed busy${retries} (HTTP 503): ${error.message}. Try again, raise SEMIF_MAX_IN_FLIGHT or add instances.`;
  }
  const containerStatus = details.originalStatusCode;
  if (containerStatus !== undefined && containerStatus < 500) {
    return `The model container rejected the request (HTTP ${containerStatus}): ${error.message}`;
  }
  if (containerStatus !== undefined) {
    return `The model container failed (ModelError, HTTP ${containerStatus}): ${error.message}`;
  }
  if (error.status === 400 || error.status === 422) return `The request was rejected: ${error.message}`;
  return error.message;
}

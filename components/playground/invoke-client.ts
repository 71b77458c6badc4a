import { invokeErrorDetailsSchema } from "@/contract/invoke/invoke.ts";
import { type InvokeMetadata, invokeMetadataOf } from "@/contract/invoke/invoke-headers.ts";
import { ApiError } from "../api/api-error.ts";
import { apiResponse } from "../api/console-client.ts";

/** An invoke's answer as the playground reads it: the container's body and what the console's headers say. */
export interface InvokeAnswer extends InvokeMetadata {
  /** The container's bytes: parsed when its Content-Type is JSON, else its text. */
  body: unknown;
}

/** The console's invoke route, plain or streaming; either way it answers the container's bytes and metadata headers. */
function openInvoke(endpoint: string, body: Record<string, unknown>, stream: boolean, signal?: AbortSignal) {
  return apiResponse("invoke", { params: { name: endpoint }, body: { body, stream }, signal });
}

function bodyOf(text: string, contentType: string | null): unknown {
  if (!contentType?.toLowerCase().includes("json")) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function invoke(endpoint: string, body: Record<string, unknown>, signal?: AbortSignal) {
  const response = await openInvoke(endpoint, body, false, signal);
  const metadata = invokeMetadataOf(response.headers);
  return { ...metadata, body: bodyOf(await response.text(), metadata.contentType) } satisfies InvokeAnswer;
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

/**
 * Streams a chat completion through the console, calling `onText` with each piece as it arrives; answers the
 * stream's metadata once it ends.
 */
export async function streamChat(
  endpoint: string,
  body: Record<string, unknown>,
  onText: (text: string) => void,
  signal?: AbortSignal,
): Promise<InvokeMetadata> {
  const response = await openInvoke(endpoint, { ...body, stream: true }, true, signal);
  const metadata = invokeMetadataOf(response.headers);
  if (!response.body) return metadata;
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
  return metadata;
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

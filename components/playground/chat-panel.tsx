"use client";

import { useRef, useState } from "react";
import { Alert } from "../ui/alert.tsx";
import { Button } from "../ui/button.tsx";
import { TextAreaField, TextField } from "../ui/field.tsx";
import { describeInvokeError, invoke, streamChat } from "./invoke-client.ts";

type Turn = { role: "user" | "assistant"; content: string };

export function ChatPanel({ endpoint }: { endpoint: string }) {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [message, setMessage] = useState("Write one sentence about a lighthouse.");
  const [maxTokens, setMaxTokens] = useState("64");
  const [stream, setStream] = useState(true);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  async function run() {
    const history: Turn[] = [...turns, { role: "user", content: message }];
    const body = { messages: history, max_tokens: Number(maxTokens), temperature: 0 };
    setTurns([...history, { role: "assistant", content: "" }]);
    setError(null);
    setRunning(true);
    const appendText = (text: string) =>
      setTurns((current) =>
        current.map((turn, i) => (i === current.length - 1 ? { ...turn, content: turn.content + text } : turn)),
      );
    try {
      if (stream) {
        abort.current = new AbortController();
        await streamChat(endpoint, body, appendText, abort.current.signal);
      } else {
        const result = await invoke(endpoint, body);
        const completion = result.body as { choices?: { message?: { content?: string } }[] };
        appendText(completion.choices?.[0]?.message?.content ?? JSON.stringify(result.body));
      }
    } catch (cause) {
      if ((cause as Error).name !== "AbortError") setError(describeInvokeError(cause));
    } finally {
      setRunning(false);
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <ol aria-label="Conversation" aria-live="polite" className="flex flex-col gap-2">
        {turns.map((turn, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: turns are only appended, so the index is their identity
          <li key={index} className={`rounded-md p-2 text-sm ${turn.role === "user" ? "bg-blue-50" : "bg-slate-100"}`}>
            <span className="font-semibold">{turn.role === "user" ? "You" : "Model"}: </span>
            <span
              data-testid={turn.role === "assistant" ? "assistant-message" : undefined}
              className="whitespace-pre-wrap"
            >
              {turn.content}
            </span>
          </li>
        ))}
      </ol>
      <TextAreaField label="Message" rows={3} value={message} onChange={(e) => setMessage(e.target.value)} />
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-32">
          <TextField
            label="Max tokens"
            type="number"
            min={1}
            value={maxTokens}
            onChange={(e) => setMaxTokens(e.target.value)}
          />
        </div>
        <label className="flex items-center gap-2 pb-1.5 text-sm">
          <input type="checkbox" checked={stream} onChange={(e) => setStream(e.target.checked)} />
          Stream the answer as it is generated
        </label>
      </div>
      {error && <Alert title="Chat failed">{error}</Alert>}
      <div className="flex gap-2">
        <Button onClick={run} disabled={!endpoint || running || message.trim() === ""}>
          Run
        </Button>
        {running && stream && (
          <Button variant="secondary" onClick={() => abort.current?.abort()}>
            Stop
          </Button>
        )}
        {turns.length > 0 && !running && (
          <Button variant="ghost" onClick={() => setTurns([])}>
            Clear conversation
          </Button>
        )}
      </div>
    </div>
  );
}

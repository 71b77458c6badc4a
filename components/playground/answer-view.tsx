"use client";

import {
  chatCompletionSchema,
  type SharedDecisionResponse,
  type SingleDecisionResponse,
  type SystemOneResponse,
  sharedDecisionResponseSchema,
  singleDecisionResponseSchema,
  systemOneResponseSchema,
} from "@decision-console/adapter/contract";
import { useId, useState } from "react";
import { z } from "zod";
import type { InvokeResult } from "@/contract/invoke/invoke.ts";
import { Card } from "../ui/card.tsx";
import { DecisionAnswer, ModelPins, TimingList } from "./decision-answer.tsx";
import { SystemOneAnswer } from "./systemone-answer.tsx";

/**
 * The assistant's message of a chat completion: the adapter's message schema, read from any OpenAI-style answer
 * (a text-generation image such as the llama.cpp DLC adds or leaves out other fields).
 */
const chatAnswerSchema = z.object({
  choices: z.array(z.object({ message: chatCompletionSchema.shape.choices.element.shape.message })).min(1),
});

type Shape =
  | { kind: "single"; body: SingleDecisionResponse }
  | { kind: "shared"; body: SharedDecisionResponse }
  | { kind: "systemone"; body: SystemOneResponse }
  | { kind: "chat"; body: z.infer<typeof chatAnswerSchema> }
  | { kind: "other"; body: unknown };

/** What the container answered, read with its contract's schemas; anything else is shown raw only. */
function shapeOf(body: unknown): Shape {
  const single = singleDecisionResponseSchema.safeParse(body);
  if (single.success) return { kind: "single", body: single.data };
  const shared = sharedDecisionResponseSchema.safeParse(body);
  if (shared.success) return { kind: "shared", body: shared.data };
  const systemOne = systemOneResponseSchema.safeParse(body);
  if (systemOne.success) return { kind: "systemone", body: systemOne.data };
  const chat = chatAnswerSchema.safeParse(body);
  if (chat.success) return { kind: "chat", body: chat.data };
  return { kind: "other", body };
}

export function AnswerView({ result }: { result: InvokeResult }) {
  const [threshold, setThreshold] = useState(0.6);
  const sliderId = useId();
  const shape = shapeOf(result.body);
  const decisions = shape.kind === "single" ? [shape.body.result] : shape.kind === "shared" ? shape.body.results : [];
  const timing = shape.kind === "single" || shape.kind === "shared" ? shape.body.timing : null;
  return (
    <Card title="Answer">
      <div className="flex flex-col gap-4" aria-live="polite">
        <p className="text-xs text-slate-700">
          {result.latencyMs.toFixed(0)} ms through the console
          {result.retries > 0 && `, after ${result.retries} busy retries`}
          {result.invokedVariant && `, variant ${result.invokedVariant}`}
        </p>
        {(decisions.length > 0 || shape.kind === "systemone") && (
          <div className="flex items-center gap-3">
            <label htmlFor={sliderId} className="text-sm font-medium">
              Threshold
            </label>
            <input
              id={sliderId}
              type="range"
              min={0}
              max={1}
              step={0.01}
              value={threshold}
              onChange={(event) => setThreshold(Number(event.target.value))}
              className="w-48 accent-amber-600"
            />
            <span className="text-sm tabular-nums">{(threshold * 100).toFixed(0)}%</span>
            <span className="text-xs text-slate-700">
              The application acts on the top option at or above it, else falls back.
            </span>
          </div>
        )}
        {decisions.map((decision) => (
          <DecisionAnswer key={decision.id} result={decision} threshold={threshold} />
        ))}
        {shape.kind === "systemone" && <SystemOneAnswer response={shape.body} threshold={threshold} />}
        {shape.kind === "chat" && (
          <p className="whitespace-pre-wrap rounded bg-slate-100 p-3 text-sm">
            {shape.body.choices[0]?.message.content}
          </p>
        )}
        {timing && decisions[0] && (
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <h3 className="mb-1 text-sm font-semibold">Timings</h3>
              <TimingList timing={timing} />
            </div>
            <div>
              <h3 className="mb-1 text-sm font-semibold">Model</h3>
              <ModelPins model={decisions[0].model} />
            </div>
          </div>
        )}
        <details className="text-sm">
          <summary className="cursor-pointer font-medium">Raw response</summary>
          <section
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable response must be reachable by keyboard
            tabIndex={0}
            aria-label="Raw response JSON"
            className="mt-2 max-h-80 overflow-auto rounded bg-slate-100 p-2"
          >
            <pre data-testid="raw-response" className="font-mono text-xs">
              {JSON.stringify(result.body, null, 2)}
            </pre>
          </section>
        </details>
      </div>
    </Card>
  );
}

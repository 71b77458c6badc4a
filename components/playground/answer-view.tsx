"use client";

import { useState } from "react";
import { DEFAULT_DECISION_THRESHOLD } from "@/contract/endpoints/monitoring.ts";
import { useEndpointThreshold, useSetEndpointThreshold } from "../monitoring/monitoring-queries.ts";
import { Alert } from "../ui/alert.tsx";
import { Card } from "../ui/card.tsx";
import { answerShapeOf } from "./answer-shape.ts";
import { DecisionAnswer, ModelPins, TimingList } from "./decision-answer.tsx";
import type { InvokeAnswer } from "./invoke-client.ts";
import { OpenAiDecisionsAnswer } from "./openai-decisions-answer.tsx";
import { SystemOneAnswer } from "./systemone-answer.tsx";
import { ThresholdControl } from "./threshold-control.tsx";

/** The answer to `request` from `endpoint`, read with the schema of what it asked for. */
export function AnswerView({
  endpoint,
  request,
  result,
}: {
  endpoint: string;
  request: Record<string, unknown>;
  result: InvokeAnswer;
}) {
  const inUse = useEndpointThreshold(endpoint);
  const keep = useSetEndpointThreshold(endpoint);
  // null until the slider moves: the endpoint's threshold in use.
  const [moved, setThreshold] = useState<number | null>(null);
  const threshold = moved ?? inUse.data?.threshold ?? DEFAULT_DECISION_THRESHOLD;
  const shape = answerShapeOf(request, result.body);
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
        {(decisions.length > 0 || shape.kind === "systemone" || shape.kind === "openai-decisions") && (
          <ThresholdControl
            kept={inUse.data ? { threshold: inUse.data.threshold, byTeam: inUse.data.kept !== null } : null}
            value={threshold}
            onChange={setThreshold}
            onKeep={(value) => keep.mutate(value, { onSuccess: () => inUse.refetch() })}
            keeping={keep.isPending}
            keepError={keep.error ? keep.error.message : null}
          />
        )}
        {shape.kind === "unexpected" && <Alert title={`The answer is not ${shape.expected}`}>{shape.problem}</Alert>}
        {decisions.map((decision) => (
          <DecisionAnswer key={decision.id} result={decision} threshold={threshold} />
        ))}
        {shape.kind === "systemone" && <SystemOneAnswer response={shape.body} threshold={threshold} />}
        {shape.kind === "openai-decisions" && <OpenAiDecisionsAnswer response={shape.body} threshold={threshold} />}
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

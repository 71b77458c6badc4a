import type { SystemOneResponse } from "@decision-console/adapter/contract";
import { ProbabilityBars } from "./probability-bars.tsx";

export function SystemOneAnswer({ response, threshold }: { response: SystemOneResponse; threshold: number }) {
  return (
    <div className="flex flex-col gap-3">
      {Object.entries(response.answers).map(([id, answer]) => {
        const probabilities: Record<string, number> =
          answer.type === "noul" ? answer.x_probabilities : answer.probabilities;
        const confidence = answer.type === "noul" ? answer.x_confidence : answer.confidence;
        const summary =
          answer.type === "noul"
            ? `P(yes) = ${answer.noul.toFixed(3)}`
            : answer.type === "choice"
              ? `choice ${answer.choice}`
              : `score ${answer.score.toFixed(2)} (level ${answer.x_level})`;
        return (
          <section key={id} aria-label={`Answer for ${id}`} className="rounded-md border border-slate-200 p-3">
            <h3 className="mb-2 font-semibold">
              {id} <span className="font-normal text-slate-700">({answer.type})</span>: {summary}, confidence{" "}
              {confidence.toFixed(3)}
            </h3>
            <ProbabilityBars
              label={`Probabilities for ${id}`}
              options={Object.keys(probabilities)}
              probabilities={Object.values(probabilities)}
              threshold={threshold}
            />
          </section>
        );
      })}
      <p className="text-xs text-slate-700">
        Model {response.model}; {response.usage.input_tokens} input tokens; {response.x_latency_ms.toFixed(1)} ms in the
        container.
      </p>
    </div>
  );
}

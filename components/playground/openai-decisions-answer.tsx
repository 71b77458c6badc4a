import type { OpenAiDecision } from "@decision-console/adapter/contract";
import { ProbabilityBars } from "./probability-bars.tsx";

type Answer = OpenAiDecision["answers"][number];

/** A choice value as shown: a boolean is marked, since `true` and `"true"` are distinct choices. */
const shown = (value: string | boolean) => (typeof value === "boolean" ? `${value} (boolean)` : value);

function bars(answer: Answer): { options: string[]; probabilities: number[] } | null {
  switch (answer.type) {
    case "predicate":
      return { options: ["true", "false"], probabilities: [answer.probability, 1 - answer.probability] };
    case "choice":
      return {
        options: answer.probabilities.map((p) => shown(p.value)),
        probabilities: answer.probabilities.map((p) => p.probability),
      };
    case "score":
      return {
        options: answer.probabilities.map((p) => p.label),
        probabilities: answer.probabilities.map((p) => p.probability),
      };
    case "refusal":
      return null;
  }
}

function summary(answer: Answer): string {
  switch (answer.type) {
    case "predicate":
      return `P(true) = ${answer.probability.toFixed(3)}`;
    case "choice":
      return `choice ${shown(answer.choice)}, confidence ${answer.confidence.toFixed(3)}`;
    case "score":
      return `score ${answer.score.toFixed(2)}, confidence ${answer.confidence.toFixed(3)}`;
    case "refusal":
      return "refused: the question does not fit the model's context";
  }
}

/** An OpenAI decisions answer: one section per question, in question order. */
export function OpenAiDecisionsAnswer({ response, threshold }: { response: OpenAiDecision; threshold: number }) {
  return (
    <div className="flex flex-col gap-3">
      {response.answers.map((answer, index) => {
        const title = answer.name ?? `question ${index + 1}`;
        const shownBars = bars(answer);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: answers are in question order, which never changes
          <section key={index} aria-label={`Answer for ${title}`} className="rounded-md border border-slate-200 p-3">
            <h3 className="mb-2 font-semibold">
              {title} <span className="font-normal text-slate-700">({answer.type})</span>: {summary(answer)}
            </h3>
            {shownBars && (
              <ProbabilityBars
                label={`Probabilities for ${title}`}
                options={shownBars.options}
                probabilities={shownBars.probabilities}
                threshold={threshold}
              />
            )}
          </section>
        );
      })}
      <p className="text-xs text-slate-700">
        Model {response.model}; {response.usage.input_tokens} input tokens (
        {response.usage.input_tokens_details.cached_tokens} cached).
      </p>
    </div>
  );
}

import type { ReactNode } from "react";
import type { ShadowComparison } from "@/contract/endpoints/monitoring.ts";
import { Alert } from "../ui/alert.tsx";
import { Card } from "../ui/card.tsx";
import { shareText } from "./monitoring-figures.ts";

const ms = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(0)} ms`);

/**
 * A shadow test's figures: how many of its copies the shadow failed, how often it agrees with production where it
 * answered, by how much its probabilities differ.
 */
export function ShadowCard({ comparison, actions }: { comparison: ShadowComparison; actions?: ReactNode }) {
  const { production, shadow, pairs, calls } = comparison;
  const failing = calls !== null && calls.failed > 0;
  return (
    <Card title={`Shadow test: ${shadow} against ${production}`} actions={actions}>
      {failing && (
        <div className="mb-3">
          <Alert tone="warning" title={`${shadow} failed ${shareText(calls.failed, calls.copies)} of its copies`}>
            It answered {calls.failed} of the {calls.copies} copies of production&apos;s requests with an error (busy,
            timeout, 4xx or 5xx); agreement is over the {pairs} decision(s) it did answer, so it says nothing about the
            failed ones.
          </Alert>
        </div>
      )}
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-5" data-testid="shadow-comparison">
        <div>
          <dt className="text-slate-700">Shadow errors</dt>
          <dd
            className={`text-lg font-semibold tabular-nums ${failing ? "text-red-800" : ""}`}
            data-testid="shadow-errors"
          >
            {calls === null ? "–" : `${calls.failed} of ${calls.copies}`}
          </dd>
        </div>
        <div>
          <dt className="text-slate-700">Agreement (same top option)</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid="shadow-agreement">
            {comparison.agreement === null ? "–" : shareText(comparison.agreement * pairs, pairs)}
          </dd>
        </div>
        <div>
          <dt className="text-slate-700">Mean probability difference</dt>
          <dd className="text-lg font-semibold tabular-nums">
            {comparison.meanProbabilityDifference === null ? "–" : comparison.meanProbabilityDifference.toFixed(3)}
          </dd>
        </div>
        <div>
          <dt className="text-slate-700">Paired decisions</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid="shadow-pairs">
            {pairs}
          </dd>
        </div>
        <div>
          <dt className="text-slate-700">Latency mean / p95</dt>
          <dd className="tabular-nums">
            {production}:{" "}
            {comparison.productionLatency
              ? `${ms(comparison.productionLatency.meanMs)} / ${ms(comparison.productionLatency.p95Ms)}`
              : "–"}
            <br />
            {shadow}:{" "}
            {comparison.shadowLatency
              ? `${ms(comparison.shadowLatency.meanMs)} / ${ms(comparison.shadowLatency.p95Ms)}`
              : "–"}
          </dd>
        </div>
      </dl>
      <p className="mt-2 text-xs text-slate-700">
        Each production decision is paired with the shadow&apos;s answer to the same request (captured within two
        minutes); callers only ever got {production}&apos;s answer.
        {comparison.unpairedProduction > 0 || comparison.unpairedShadow > 0
          ? ` Not paired: ${comparison.unpairedProduction} of ${production}'s, ${comparison.unpairedShadow} of ${shadow}'s (sampled, still in flight, or failed).`
          : ""}
      </p>
    </Card>
  );
}

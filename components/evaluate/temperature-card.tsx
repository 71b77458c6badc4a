import Link from "next/link";
import type { TemperatureFit } from "@/contract/evaluate/metrics.ts";
import { HELD_OUT_MIN_ITEMS_PER_HALF } from "@/contract/evaluate/metrics.ts";
import { buttonClasses } from "../ui/button.tsx";
import { decimal } from "./format.ts";

/**
 * The fitted temperature with its check on held-out items and, only when that check shows it improves them, a link
 * to deploy a new endpoint with it (the deploy form reads `temperature`, i.e. SEMIF_TEMPERATURE) and one to update
 * this endpoint in place with it (the endpoint page opens its update form).
 */
export function TemperatureCard({ fit, endpointName }: { fit: TemperatureFit | null; endpointName: string }) {
  if (!fit) return <p className="text-sm text-slate-700">No temperature: nothing was scored yet.</p>;
  const temperature = Number(fit.temperature.toFixed(3));
  return (
    <div className="flex flex-col gap-2 text-sm">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1">
        <dt className="text-slate-700">Fitted temperature</dt>
        <dd className="font-semibold tabular-nums" data-testid="fitted-temperature">
          {temperature}
        </dd>
        <dt className="text-slate-700">Log-loss before → after</dt>
        <dd className="tabular-nums">
          {decimal(fit.logLossBefore)} → {decimal(fit.logLossAfter)}
        </dd>
        <dt className="text-slate-700">ECE before → after</dt>
        <dd className="tabular-nums">
          {decimal(fit.eceBefore)} → {decimal(fit.eceAfter)}
        </dd>
      </dl>
      {fit.atLimit ? <LimitWarning limit={fit.atLimit} temperature={temperature} /> : null}
      <HeldOutCheck heldOut={fit.heldOut} />
      {fit.heldOut?.improves && <ApplyTemperature temperature={temperature} endpointName={endpointName} />}
    </div>
  );
}

/** The fit judged on items it was not fitted on: the figures that decide whether it is offered. */
function HeldOutCheck({ heldOut }: { heldOut: TemperatureFit["heldOut"] }) {
  if (!heldOut) {
    return (
      <p className="text-slate-700" data-testid="temperature-held-out">
        Too few items to check this temperature on items it was not fitted on (at least{" "}
        {2 * HELD_OUT_MIN_ITEMS_PER_HALF} answered items), so it is not offered. Evaluate a larger set.
      </p>
    );
  }
  return (
    <div data-testid="temperature-held-out">
      <p className="text-slate-700">On held-out items ({heldOut.items}, each judged by a fit on the other half):</p>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1">
        <dt className="text-slate-700">Held-out log-loss</dt>
        <dd className="tabular-nums">
          {decimal(heldOut.logLossBefore)} → {decimal(heldOut.logLossAfter)}
        </dd>
        <dt className="text-slate-700">Held-out ECE</dt>
        <dd className="tabular-nums">
          {decimal(heldOut.eceBefore)} → {decimal(heldOut.eceAfter)}
        </dd>
      </dl>
      {!heldOut.improves && (
        <p className="mt-1 rounded border border-amber-300 bg-amber-50 p-2 text-amber-900">
          On items it did not see this temperature makes calibration worse, so it is not offered: keep the endpoint's
          temperature, or evaluate more items.
        </p>
      )}
    </div>
  );
}

function ApplyTemperature({ temperature, endpointName }: { temperature: number; endpointName: string }) {
  return (
    <>
      <div className="flex flex-wrap gap-2">
        <Link
          className={buttonClasses("secondary", "sm")}
          href={`/deploy?temperature=${temperature}&from=${encodeURIComponent(endpointName)}`}
        >
          Deploy with temperature {temperature}
        </Link>
        <Link
          className={buttonClasses("secondary", "sm")}
          href={`/endpoints/${encodeURIComponent(endpointName)}?temperature=${temperature}`}
        >
          Update this endpoint with {temperature}
        </Link>
      </div>
      <p className="text-xs text-slate-600">
        Sets <code>SEMIF_TEMPERATURE={temperature}</code> on a new deployment or this endpoint.
      </p>
    </>
  );
}

/** A fit at an end of the searched range is a limit, not a measured temperature: say what it means. */
function LimitWarning({ limit, temperature }: { limit: "lowest" | "highest"; temperature: number }) {
  return (
    <p className="rounded border border-amber-300 bg-amber-50 p-2 text-amber-900" data-testid="temperature-limit">
      {limit === "highest"
        ? `The fit stopped at the highest temperature it tries (${temperature}): on these items the scores barely ` +
          "tell right answers from wrong ones, so making every decision nearly uniform is the best calibration can " +
          "do. Improve the prompt or the model before deploying a temperature this high."
        : `The fit stopped at the lowest temperature it tries (${temperature}): on these items the chosen option ` +
          "is almost always right, so sharpening never stops paying. Add items the model gets wrong to measure a " +
          "temperature."}
    </p>
  );
}

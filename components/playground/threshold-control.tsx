"use client";

import { useId } from "react";
import { Button } from "../ui/button.tsx";

const percent = (value: number) => `${(value * 100).toFixed(0)}%`;

/**
 * The playground's threshold: it starts from the threshold kept on the endpoint (the one Monitoring and realised
 * quality read decisions against), and a moved slider can be kept there so every view uses the same one.
 */
export function ThresholdControl({
  kept,
  value,
  onChange,
  onKeep,
  keeping,
  keepError,
}: {
  /** The endpoint's threshold in use, and whether a team kept it (false: the default). */
  kept: { threshold: number; byTeam: boolean } | null;
  value: number;
  onChange: (value: number) => void;
  onKeep: (value: number) => void;
  keeping: boolean;
  keepError: string | null;
}) {
  const sliderId = useId();
  const moved = kept !== null && Math.abs(kept.threshold - value) > 1e-9;
  return (
    <div className="flex flex-col gap-1">
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor={sliderId} className="text-sm font-medium">
          Threshold
        </label>
        <input
          id={sliderId}
          type="range"
          min={0.01}
          max={0.99}
          step={0.01}
          value={value}
          onChange={(event) => onChange(Number(event.target.value))}
          className="w-48 accent-amber-600"
        />
        <span className="text-sm tabular-nums">{percent(value)}</span>
        {moved && (
          <Button size="sm" variant="secondary" disabled={keeping} onClick={() => onKeep(value)}>
            Keep {percent(value)} as the endpoint's threshold
          </Button>
        )}
      </div>
      <p className="text-xs text-slate-700">
        The application acts on the top option at or above it, else falls back.{" "}
        {kept === null
          ? "Reading the endpoint's threshold…"
          : `The endpoint's threshold is ${percent(kept.threshold)}${kept.byTeam ? "" : " (the default)"}: Monitoring and realised quality read decisions against it.`}
      </p>
      {keepError && (
        <p role="alert" className="text-xs text-red-800">
          {keepError}
        </p>
      )}
    </div>
  );
}

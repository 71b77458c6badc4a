/** One bar per option in the request's order; each is a meter whose value is the option's probability. */
export function ProbabilityBars({
  label,
  options,
  probabilities,
  threshold,
}: {
  label: string;
  options: string[];
  probabilities: number[];
  threshold: number;
}) {
  const argmax = probabilities.reduce((best, p, index) => (p > (probabilities[best] ?? -1) ? index : best), 0);
  return (
    <ul aria-label={label} className="flex flex-col gap-1.5">
      {options.map((option, index) => {
        const p = probabilities[index] ?? 0;
        const isArgmax = index === argmax;
        return (
          <li key={option} className="grid grid-cols-[8rem_1fr_4.5rem] items-center gap-2 text-sm">
            <span className={`truncate ${isArgmax ? "font-semibold" : ""}`} title={option}>
              {option}
            </span>
            {/* biome-ignore lint/a11y/useSemanticElements: a native <meter> cannot hold the threshold line, and clients read aria-valuenow */}
            <div
              role="meter"
              aria-label={option}
              aria-valuenow={p}
              aria-valuemin={0}
              aria-valuemax={1}
              aria-valuetext={`${(p * 100).toFixed(1)}%${isArgmax ? ", most probable" : ""}`}
              data-argmax={isArgmax ? "true" : undefined}
              className="relative h-5 overflow-hidden rounded bg-slate-200"
            >
              <div
                className={`h-full ${isArgmax ? "bg-blue-700" : "bg-slate-500"}`}
                style={{ width: `${Math.max(0, Math.min(1, p)) * 100}%` }}
              />
              <div
                aria-hidden="true"
                className="absolute inset-y-0 border-l-2 border-dashed border-amber-600"
                style={{ left: `${threshold * 100}%` }}
              />
            </div>
            <span className="text-right tabular-nums">
              {(p * 100).toFixed(1)}%{isArgmax && <span className="ml-1 text-blue-800">★</span>}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

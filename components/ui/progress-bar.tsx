/**
 * A determinate progress bar drawn from its own track and fill: a native `<progress>` is painted by the browser,
 * and with Tailwind's sizing Chrome drew a run at 0% as a full bar.
 */
export function ProgressBar({ label, done, total }: { label: string; done: number; total: number }) {
  const share = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={done}
      className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div className="h-full rounded-full bg-blue-700" style={{ width: `${(share * 100).toFixed(1)}%` }} />
    </div>
  );
}

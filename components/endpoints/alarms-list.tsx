import type { EndpointAlarm } from "@/contract/endpoints/alarms.ts";
import { Badge } from "../ui/badge.tsx";
import { timestampText } from "../ui/timestamp.tsx";

const kinds: Record<EndpointAlarm["kind"], string> = {
  "rollback-guard": "Rollback guard",
  "scale-to-zero-wake-up": "Scale-to-zero wake-up",
  "target-tracking": "Autoscaling (target tracking)",
};

const tones = { OK: "success", ALARM: "danger", INSUFFICIENT_DATA: "neutral" } as const;

const when = timestampText;

/** The alarms the console created for an endpoint: what each watches, its state now and its latest changes. */
export function AlarmsList({ alarms }: { alarms: readonly EndpointAlarm[] }) {
  if (alarms.length === 0) {
    return (
      <p className="text-sm text-slate-700">
        None. The console creates rollback guards with an update and a wake-up alarm with scale to zero.
      </p>
    );
  }
  return (
    <ul className="divide-y divide-slate-200" aria-label="Alarms">
      {alarms.map((alarm) => (
        <li key={alarm.name} className="py-2 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={tones[alarm.state]}>{alarm.state}</Badge>
            <span className="break-all font-mono text-xs">{alarm.name}</span>
            <span className="text-xs text-slate-700">{kinds[alarm.kind]}</span>
          </div>
          <p className="mt-1 text-xs text-slate-700">
            {alarm.condition}
            {alarm.stateUpdatedAt && (
              <>
                ; {alarm.state} since {when(alarm.stateUpdatedAt)}
              </>
            )}
            {alarm.stateReason && <>: {alarm.stateReason}</>}
          </p>
          {alarm.history.length > 0 && (
            <details className="mt-1 text-xs text-slate-700">
              <summary className="cursor-pointer">State changes ({alarm.history.length})</summary>
              <ol className="mt-1 flex flex-col gap-0.5">
                {alarm.history.map((item) => (
                  <li key={`${item.at}-${item.summary}`}>
                    <time dateTime={item.at}>{when(item.at)}</time> {item.summary}
                  </li>
                ))}
              </ol>
            </details>
          )}
        </li>
      ))}
    </ul>
  );
}

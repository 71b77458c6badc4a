"use client";

import { ErrorAlert } from "../api/error-text.tsx";
import { Card } from "../ui/card.tsx";
import { AlarmsList } from "./alarms-list.tsx";
import { useEndpointAlarms } from "./endpoint-activity-queries.ts";

export function AlarmsCard({ name }: { name: string }) {
  const { data, error, isPending } = useEndpointAlarms(name);
  return (
    <Card title="Alarms (CloudWatch)">
      {error && <ErrorAlert title="Alarms unavailable" error={error} />}
      {isPending && <p className="text-sm text-slate-700">Loading alarms…</p>}
      {data && <AlarmsList alarms={data.alarms} />}
    </Card>
  );
}

import type { GatewayKeyUsage } from "@/contract/gateway/keys.ts";
import { LineChart } from "../charts/line-chart.tsx";

/** A key's calls per minute over the last day, in the console's line chart. */
export function KeyUsageChart({ usage }: { usage: GatewayKeyUsage }) {
  const to = new Date().toISOString();
  const from = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString();
  return (
    <LineChart
      title="Calls per minute"
      unit="calls"
      points={usage.perMinute.map((minute) => ({ at: minute.minute, value: minute.calls }))}
      from={from}
      to={to}
    />
  );
}

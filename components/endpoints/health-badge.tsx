"use client";

import { type EndpointHealth, endpointHealth, HEALTH_WINDOW } from "@/contract/endpoints/health.ts";
import { Badge, type Tone } from "../ui/badge.tsx";
import { useEndpointAlarms, useEndpointMetrics } from "./endpoint-activity-queries.ts";

const tones: Record<EndpointHealth["level"], Tone> = {
  alarm: "danger",
  degraded: "warning",
  healthy: "success",
  unknown: "neutral",
};

const labels: Record<EndpointHealth["level"], string> = {
  alarm: "Alarm",
  degraded: "Failing calls",
  healthy: "Healthy",
  unknown: "Health",
};

/** An endpoint's health as a badge: its level, and the failure rate and alarms in ALARM in words. */
export function HealthBadgeView({ health }: { health: EndpointHealth }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1" data-health={health.level}>
      <Badge tone={tones[health.level]}>{labels[health.level]}</Badge>
      <span className="text-xs text-slate-700">{health.text}</span>
    </span>
  );
}

/** The endpoint's health over the last 15 minutes: its invocations' failure rate and its alarms' states. */
export function HealthBadge({ name }: { name: string }) {
  const metrics = useEndpointMetrics(name, HEALTH_WINDOW);
  const alarms = useEndpointAlarms(name);
  return <HealthBadgeView health={endpointHealth(metrics.data?.series ?? null, alarms.data?.alarms ?? null)} />;
}

import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { consoleContext } from "@/server/context.ts";
import { endpointNameParam } from "@/server/endpoints/route-params.ts";
import { readJson, reply, route } from "@/server/http/route.ts";
import { driftView, putDriftAlarms } from "@/server/monitoring/drift.ts";
import { setBaselineFromEvaluationRun, setBaselineFromWindow } from "@/server/monitoring/drift-store.ts";

type Context = { params: Promise<{ name: string }> };

/** Each baselined kind's drift over the last hour, its baseline, and its alarms with their states. */
export const GET = route(async (request, { params }: Context) => {
  await requireRole(request, "viewer");
  const name = await endpointNameParam(params);
  const { aws, store } = consoleContext();
  return reply(consoleApi.endpointDrift, await driftView(aws.cloudWatch, store, name));
});

/** Sets a kind's baseline and/or its alarm threshold (operators; audited). */
export const PUT = route(async (request, { params }: Context) => {
  const principal = await requireRole(request, "operator");
  const name = await endpointNameParam(params);
  const body = await readJson(request, consoleApi.setDrift.body);
  const { aws, store } = consoleContext();
  const entry = { actor: principal.name, action: "endpoint.drift.set", target: name, detail: body };
  await audited(store, entry, async () => {
    const baseline = body.baseline;
    if (baseline?.source === "window") {
      const [from, to] = [Date.parse(baseline.from), Date.parse(baseline.to)];
      await setBaselineFromWindow(store, name, body.kind, from, to, principal.name);
    } else if (baseline?.source === "evaluation") {
      await setBaselineFromEvaluationRun(store, name, body.kind, baseline.runId, principal.name);
    }
    if (body.alarmThreshold !== undefined)
      await putDriftAlarms(aws.cloudWatch, store, name, body.kind, body.alarmThreshold);
  });
  return reply(consoleApi.setDrift, await driftView(aws.cloudWatch, store, name));
});

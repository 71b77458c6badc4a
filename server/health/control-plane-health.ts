import type { ControlPlaneHealth } from "../../contract/health/health.ts";

/**
 * Probes `CONSOLE_CONTROL_PLANE_HEALTH_URL` (local mode points it at the control plane's `/_local/health`; AWS mode
 * sets none, so the health check stays free of AWS calls). Undefined when no URL is configured.
 */
export async function controlPlaneHealth(url: string | undefined): Promise<ControlPlaneHealth | undefined> {
  if (!url) return undefined;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(2000) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    return { status: "unreachable", reason: `no answer (${cause})` };
  }
  const body = (await response.json().catch(() => null)) as { status?: unknown } | null;
  if (response.status === 200 && body?.status === "ok") return { status: "ok" };
  return { status: "unhealthy", reason: `answered ${response.status}` };
}

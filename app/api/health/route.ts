import { consoleApi } from "@/contract/api.ts";
import packageJson from "@/package.json" with { type: "json" };
import { consoleConfig } from "@/server/config.ts";
import { controlPlaneHealth } from "@/server/health/control-plane-health.ts";
import { reply, route } from "@/server/http/route.ts";

/**
 * Liveness for load balancers and the local-mode start script; needs no login and calls no AWS service. When a
 * control-plane health URL is configured (local mode) its state is included, and a control plane that is not ok
 * makes the console answer 503 `degraded`.
 */
export const GET = route(async () => {
  const config = consoleConfig();
  const controlPlane = await controlPlaneHealth(config.CONSOLE_CONTROL_PLANE_HEALTH_URL);
  const healthy = controlPlane === undefined || controlPlane.status === "ok";
  return reply(
    consoleApi.health,
    {
      status: healthy ? "ok" : "degraded",
      mode: config.CONSOLE_MODE,
      versions: { console: packageJson.version, node: process.versions.node },
      ...(controlPlane ? { controlPlane } : {}),
    },
    { status: healthy ? 200 : 503 },
  );
});

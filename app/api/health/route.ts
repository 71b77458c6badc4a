import packageJson from "@/package.json" with { type: "json" };
import { consoleSettings } from "@/server/context.ts";
import { route } from "@/server/http/route.ts";

/** Liveness for load balancers and the local-mode start script; needs no login and calls no AWS service. */
export const GET = route(async () => {
  return Response.json({
    status: "ok",
    mode: consoleSettings().mode,
    versions: { console: packageJson.version, node: process.versions.node },
  });
});

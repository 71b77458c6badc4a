import { consoleConfig } from "./server/config.ts";

/**
 * Next.js start-up hook: runs once per server process before it takes requests. The settings are parsed first, so
 * a bad value stops the server with a message naming it, before any request. `process.env.NEXT_RUNTIME` is
 * Next.js's own build-time constant, as its documentation reads it: the standalone server (the console image) does
 * not set it in the environment, so the parsed settings would not see it there.
 */
export async function register(): Promise<void> {
  const config = consoleConfig();
  if (process.env.NEXT_RUNTIME !== "nodejs" || config.NEXT_PHASE === "phase-production-build") return;
  const { stampPeerAddresses } = await import("./server/http/peer-address.ts");
  stampPeerAddresses(config);
  const { refuseFetchForbiddenMethods } = await import("./server/http/refuse-fetch-forbidden-methods.ts");
  refuseFetchForbiddenMethods();
  const { startConsoleBackgroundWork } = await import("./server/background/console-background.ts");
  const background = startConsoleBackgroundWork();
  const { stopGracefullyOnSignals } = await import("./server/lifecycle/shutdown.ts");
  stopGracefullyOnSignals({
    stopWork: () => background.stop(),
    manualSignals: config.NEXT_MANUAL_SIG_HANDLE === "true",
  });
}

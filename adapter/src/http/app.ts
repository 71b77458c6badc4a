import type { AddressInfo } from "node:net";
import type { AdapterConfig } from "../engine/config.ts";
import { type Engine, startEngine } from "../engine/engine.ts";
import { loadRoutes } from "./routes-loader.ts";
import { createAdapterServer } from "./server.ts";

export type RunningAdapter = {
  url: string;
  /** Resolves when the model is loaded and warmed up (/ping says 200); rejects if start-up failed. */
  ready: Promise<Engine>;
  close(): Promise<void>;
};

/** Where a client on this machine reaches the server: loopback for a wildcard address, brackets for IPv6. */
function reachableHost(address: AddressInfo): string {
  if (address.address === "0.0.0.0" || address.address === "::") return "127.0.0.1";
  return address.family === "IPv6" ? `[${address.address}]` : address.address;
}

/** Listens at once (so /ping can say 503 while loading), then loads the model. */
export async function startAdapter(
  config: AdapterConfig,
  options: { host?: string; port?: number; log?: (line: Record<string, unknown>) => void } = {},
): Promise<RunningAdapter> {
  let engine: Engine | null = null;
  const server = createAdapterServer({
    routes: await loadRoutes(),
    config,
    engine: () => engine,
    log: options.log,
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? config.port, options.host ?? config.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const ready = startEngine(config).then((started) => {
    engine = started;
    return started;
  });
  ready.catch(() => undefined);
  return {
    url: `http://${reachableHost(address)}:${address.port}`,
    ready,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const started = await ready.catch(() => null);
      await started?.dispose();
    },
  };
}

import { readConfig } from "./engine/config.ts";
import { startAdapter } from "./http/app.ts";

const log = (line: Record<string, unknown>) =>
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`);

async function serve(): Promise<void> {
  const config = readConfig();
  const adapter = await startAdapter(config);
  log({ event: "listening", url: adapter.url, threads: config.threads, gpu: config.gpu || "cpu" });
  const shutdown = () => {
    log({ event: "stopping" });
    adapter.close().finally(() => process.exit(0));
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
  try {
    const engine = await adapter.ready;
    log({ event: "ready", model: engine.metadata });
  } catch (error) {
    log({ event: "start_failed", error: (error as Error).message });
    await adapter.close().catch(() => undefined);
    process.exit(1);
  }
}

const command = process.argv[2];
if (command === "serve") {
  serve().catch((error: unknown) => {
    log({ event: "start_failed", error: (error as Error).message });
    process.exit(1);
  });
} else {
  process.stderr.write("usage: cli.ts serve   (SageMaker container entry point; see adapter/README.md)\n");
  process.exit(2);
}

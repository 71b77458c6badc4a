import fs from "node:fs";
import path from "node:path";
import { readConfig } from "../../src/engine/config.ts";
import { startEngine } from "../../src/engine/engine.ts";
import { dlcLaunch } from "./dlc-entrypoint.ts";
import { createStandInServer } from "./stand-in-server.ts";
import { type DlcImageVariant, standInSettings } from "./stand-in-settings.ts";

/**
 * Local mode's "image" of the llama.cpp DLC (`main.ts <cpu|cuda>`): the DLC's entrypoint reading of SM_LLAMA_CPP_*,
 * the adapter's engine loading the GGUF, and llama-server's HTTP surface over the adapter's chat API.
 */
const log = (line: Record<string, unknown>) =>
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`);

/** The first *.gguf (by path) in the directory or its subdirectories, two levels deep as the DLC searches. */
function findGguf(directory: string, depth = 2): string | null {
  if (!fs.existsSync(directory)) return null;
  const entries = fs.readdirSync(directory, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  const file = entries.find((entry) => entry.isFile() && entry.name.endsWith(".gguf"));
  if (file) return path.join(directory, file.name);
  if (depth === 0) return null;
  for (const entry of entries.filter((e) => e.isDirectory())) {
    const found = findGguf(path.join(directory, entry.name), depth - 1);
    if (found) return found;
  }
  return null;
}

async function main() {
  const variant: DlcImageVariant = process.argv[2] === "cuda" ? "cuda" : "cpu";
  const launch = dlcLaunch(process.env);
  const settings = standInSettings(launch, variant);
  const modelDir = launch.modelDir ?? process.env.SM_MODEL_DIR ?? "/opt/ml/model";
  const model = launch.model ?? findGguf(modelDir);
  if (!model) throw new Error(`no *.gguf under ${modelDir} (set SM_LLAMA_CPP_MODEL or SM_LLAMA_CPP_MODEL_DIR)`);
  log({
    event: "llama-server stand-in",
    note: "local mode: the adapter's chat API stands in for llama-server; decision scoring is not served",
    variant,
    model: path.basename(model),
    flags: Object.fromEntries(launch.flags),
  });
  const config = readConfig({ ...settings, ADAPTER_MODEL_PATH: model, ADAPTER_READING_CACHE: "0" });
  const engine = await startEngine(config);
  const server = createStandInServer(engine, log);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(launch.port, "127.0.0.1", resolve);
  });
  log({ event: "ready", port: launch.port, context_size: engine.loaded.contextSize, threads: config.threads });
  const stop = () => {
    server.closeAllConnections();
    server.close(() => void engine.dispose().finally(() => process.exit(0)));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

main().catch((error: unknown) => {
  log({ event: "start_failed", error: (error as Error).message });
  process.exit(1);
});

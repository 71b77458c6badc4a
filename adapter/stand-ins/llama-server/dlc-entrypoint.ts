/**
 * What the llama.cpp DLC's SageMaker entrypoint does with the container's environment (aws/deep-learning-containers,
 * docs/llama-cpp/configuration.md): it reads SM_LLAMA_CPP_MODEL, SM_LLAMA_CPP_MODEL_DIR and SM_LLAMA_CPP_PORT
 * itself, and turns every other SM_LLAMA_CPP_FOO_BAR=value into the llama-server flag `--foo-bar value` (`true` a
 * bare flag, `false` dropped). Nothing else of the environment reaches llama-server.
 */

const PREFIX = "SM_LLAMA_CPP_";

export interface DlcLaunch {
  /** SM_LLAMA_CPP_MODEL: an explicit GGUF path, which skips the model directory scan. */
  model: string | null;
  /** SM_LLAMA_CPP_MODEL_DIR (default /opt/ml/model): scanned for a *.gguf up to two levels deep. */
  modelDir: string | null;
  /** SM_LLAMA_CPP_PORT (default 8080): the port the container serves on. */
  port: number;
  /** llama-server's flags, in the order of the variables' names: `--ctx-size` -> "4096", a bare flag -> true. */
  flags: Map<string, string | true>;
}

export class DlcLaunchError extends Error {}

export function dlcLaunch(env: Record<string, string | undefined>): DlcLaunch {
  const flags = new Map<string, string | true>();
  const names = Object.keys(env)
    .filter((name) => name.startsWith(PREFIX) && env[name] !== undefined)
    .sort();
  for (const name of names) {
    if (name === `${PREFIX}MODEL` || name === `${PREFIX}MODEL_DIR` || name === `${PREFIX}PORT`) continue;
    const value = env[name] as string;
    if (value === "false") continue;
    const flag = `--${name.slice(PREFIX.length).toLowerCase().replaceAll("_", "-")}`;
    flags.set(flag, value === "true" ? true : value);
  }
  const rawPort = env[`${PREFIX}PORT`] || "8080";
  const port = Number(rawPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new DlcLaunchError(`SM_LLAMA_CPP_PORT must be a port number, got "${rawPort}"`);
  }
  return { model: env[`${PREFIX}MODEL`] || null, modelDir: env[`${PREFIX}MODEL_DIR`] || null, port, flags };
}

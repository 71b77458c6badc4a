import type { DlcLaunch } from "./dlc-entrypoint.ts";

export type DlcImageVariant = "cpu" | "cuda";

/** llama-server's "all layers" value as the DLC documents it. */
const ALL_GPU_LAYERS = 999;

export class StandInSettingsError extends Error {}

function positiveInteger(flag: string, value: string | true): string {
  if (value === true || !/^[1-9]\d*$/.test(value)) {
    throw new StandInSettingsError(
      `${flag} needs a positive integer, got ${value === true ? "no value" : `"${value}"`}`,
    );
  }
  return value;
}

/**
 * The adapter settings that make its chat API behave as llama-server would with these flags, on this image variant:
 * `--threads`; `--parallel` slots sharing `--ctx-size` (each slot holds ctx-size / parallel tokens, as llama-server
 * splits its context; without `--parallel`, one slot with the whole context, never more room than on AWS); and
 * `--n-gpu-layers` on the cuda image (all layers or none: the adapter offloads no partial model; the cpu image
 * ignores it, as the DLC says). A flag the stand-in cannot honour stops the start with a message naming it, rather
 * than being silently ignored; a Hugging Face download is refused, as it would fail on an endpoint with network
 * isolation.
 */
export function standInSettings(launch: DlcLaunch, variant: DlcImageVariant): Record<string, string> {
  const settings: Record<string, string> = { ADAPTER_PARALLEL: "1" };
  let contextSize: number | null = null;
  for (const [flag, value] of launch.flags) {
    if (flag === "--ctx-size") contextSize = Number(positiveInteger(flag, value));
    else if (flag === "--parallel") settings.ADAPTER_PARALLEL = positiveInteger(flag, value);
    else if (flag === "--threads") settings.ADAPTER_THREADS = positiveInteger(flag, value);
    else if (flag === "--n-gpu-layers") {
      if (variant === "cpu") continue;
      const layers = value === true ? Number.NaN : Number(value);
      if (layers === 0) continue;
      if (layers >= ALL_GPU_LAYERS) settings.ADAPTER_GPU = "cuda";
      else {
        throw new StandInSettingsError(
          `--n-gpu-layers ${value === true ? "" : value}: the local stand-in offloads every layer (${ALL_GPU_LAYERS}) or none (0), not part of the model`,
        );
      }
    } else if (flag === "--hf-repo" || flag === "--hf-file") {
      throw new StandInSettingsError(
        `${flag}: llama-server would download the GGUF from Hugging Face, which needs network egress; the console's endpoints run with network isolation. Package the GGUF as the model data instead.`,
      );
    } else {
      throw new StandInSettingsError(
        `${flag} (SM_LLAMA_CPP_${flag.slice(2).toUpperCase().replaceAll("-", "_")}) is not emulated by local mode's llama-server stand-in, which honours --ctx-size, --threads, --parallel and --n-gpu-layers; on AWS llama-server would receive it as given`,
      );
    }
  }
  if (contextSize !== null) {
    const perSlot = Math.floor(contextSize / Number(settings.ADAPTER_PARALLEL));
    if (perSlot < 16) throw new StandInSettingsError(`--ctx-size ${contextSize} leaves fewer than 16 tokens per slot`);
    settings.SEMIF_MAX_TOKENS = String(perSlot);
  }
  return settings;
}

import path from "node:path";
import { getLlama, type Llama, type LlamaContext, LlamaLogLevel, type LlamaModel } from "node-llama-cpp";
import type { ModelMetadata } from "../contract/common.ts";
import type { AdapterConfig } from "./config.ts";
import { locateModel, type ModelFile, verifyModelFile } from "./model-file.ts";

export type LoadedModel = {
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
  file: ModelFile;
  /** Tokens a prompt may hold: the smaller of SEMIF_MAX_TOKENS and the model's training context. */
  contextSize: number;
  metadata: Omit<ModelMetadata, "chat_template">;
  dispose(): Promise<void>;
};

/**
 * With `ADAPTER_GPU=cuda` the adapter must really run on CUDA with every layer offloaded (DESIGN §3): any other
 * outcome is a start-up failure, never a silent CPU fallback.
 */
export function assertCudaActive(state: {
  gpu: string | false;
  gpuLayers: number;
  totalLayers: number;
  vramUsed: number;
}): void {
  const problems: string[] = [];
  if (state.gpu !== "cuda") problems.push(`the loaded backend is ${state.gpu === false ? "CPU" : state.gpu}, not CUDA`);
  if (state.gpuLayers < state.totalLayers) {
    problems.push(`${state.gpuLayers} of ${state.totalLayers} layers are offloaded to the GPU`);
  }
  if (state.vramUsed <= 0) problems.push("no VRAM is in use");
  if (problems.length > 0) {
    throw new Error(`ADAPTER_GPU=cuda but CUDA is not fully active: ${problems.join("; ")}. Refusing to start on CPU.`);
  }
}

async function loadLlama(gpu: AdapterConfig["gpu"]): Promise<Llama> {
  try {
    return await getLlama({ build: "never", gpu, logLevel: LlamaLogLevel.warn, progressLogs: false });
  } catch (error) {
    if (gpu === "cuda") {
      const cause = error instanceof Error ? [error.name, error.message].filter(Boolean).join(": ") : String(error);
      throw new Error(
        `ADAPTER_GPU=cuda but the CUDA backend could not be loaded (${cause}). A GPU with the NVIDIA driver and ` +
          "node-llama-cpp's CUDA binaries are required; refusing to start on CPU.",
      );
    }
    throw error;
  }
}

export async function loadModel(config: AdapterConfig): Promise<LoadedModel> {
  const modelPath = locateModel(config.modelPath, config.modelDir, config.modelPathBase);
  const file = await verifyModelFile(modelPath, config.modelSha256);
  const llama = await loadLlama(config.gpu);
  const model = await llama.loadModel({ modelPath, gpuLayers: config.gpu === "cuda" ? "max" : 0 });
  const contextSize = Math.min(config.maxTokens, model.trainContextSize);
  const context = await model.createContext({
    contextSize,
    sequences: config.parallel,
    threads: config.threads,
    batchSize: Math.min(512, contextSize),
  });
  const totalLayers = model.fileInsights.totalLayers;
  if (config.gpu === "cuda") {
    const vram = await llama.getVramState();
    assertCudaActive({ gpu: llama.gpu, gpuLayers: model.gpuLayers, totalLayers, vramUsed: vram.used });
  }
  const general = model.fileInfo.metadata.general as { architecture?: string; name?: string };
  return {
    llama,
    model,
    context,
    file,
    contextSize,
    metadata: {
      file: path.basename(modelPath),
      bytes: file.bytes,
      sha256: file.sha256,
      manifest: file.manifest,
      architecture: general.architecture ?? null,
      name: general.name ?? null,
      backend: llama.gpu === false ? "cpu" : llama.gpu,
      gpu_layers: model.gpuLayers,
      total_layers: totalLayers,
      threads: config.threads,
      context_size: contextSize,
      parallel: config.parallel,
    },
    async dispose() {
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}

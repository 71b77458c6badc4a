import { type ChildProcess, spawn } from "node:child_process";
import { freePort } from "@decision-console/local-aws";

/** A `llama-server` child process on loopback, and the three endpoints the peer benchmark uses. */
export type LlamaServer = {
  url: string;
  props: Record<string, unknown>;
  /**
   * `/completion` on exact token ids: the prompt is evaluated and one token generated (none with `generate: false`,
   * which only fills the slot's prompt cache). With `only`, every other token is banned (logit bias), so the
   * returned probabilities are the softmax over just those tokens' logits.
   */
  complete(
    tokens: readonly number[],
    options: { cachePrompt: boolean; only?: readonly number[]; vocabulary?: number; generate?: boolean },
  ): Promise<Completion>;
  /** `/tokenize` of a text prompt as llama-server tokenizes one (special tokens parsed, BOS added). */
  tokenize(text: string): Promise<number[]>;
  stop(): Promise<void>;
};

export type Completion = {
  ms: number;
  /** Prompt tokens llama-server evaluated (the rest came from its prompt cache). */
  evaluated: number;
  /** llama-server's own time for the prompt's forward passes and the token it generated (`timings`). */
  passesMs: number;
  /** Probabilities over the `only` tokens at the position after the prompt, when asked for. */
  probabilities: Map<number, number>;
};

type CompletionBody = {
  timings?: { prompt_n?: number; prompt_ms?: number; predicted_ms?: number };
  completion_probabilities?: Array<{ top_probs?: Array<{ id: number; prob: number }> }>;
};

/** Only PATH: llama-server needs nothing else from this environment (NODE_ENV is typed as required here). */
function serverEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (name !== "PATH") delete env[name];
  return env;
}

export async function startLlamaServer(
  binary: string,
  options: { model: string; threads: number; contextSize: number; gpuLayers?: number; log: (line: string) => void },
): Promise<LlamaServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    binary,
    [
      ...["--model", options.model, "--host", "127.0.0.1", "--port", String(port)],
      ...["--threads", String(options.threads), "--threads-batch", String(options.threads)],
      ...["--ctx-size", String(options.contextSize), "--n-gpu-layers", String(options.gpuLayers ?? 0), "--no-webui"],
    ],
    { stdio: ["ignore", "pipe", "pipe"], env: serverEnvironment() },
  );
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) if (line.trim()) lines.push(line);
      while (lines.length > 200) lines.shift();
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    const status = await fetch(`${url}/health`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`llama-server did not become healthy:\n${lines.slice(-20).join("\n")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const props = (await (await fetch(`${url}/props`)).json()) as Record<string, unknown>;
  options.log(
    `llama-server ${url}: ${lines
      .filter((line) => /n_ctx|slots|flash_attn|n_parallel/.test(line))
      .slice(0, 4)
      .join(" | ")}`,
  );
  const post = async (path: string, body: unknown) => {
    const started = performance.now();
    const response = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const parsed = (await response.json()) as unknown;
    if (response.status !== 200)
      throw new Error(`llama-server ${path}: ${response.status} ${JSON.stringify(parsed).slice(0, 300)}`);
    return { parsed, ms: performance.now() - started };
  };
  return {
    url,
    props,
    async complete(tokens, { cachePrompt, only, vocabulary = 0, generate = true }) {
      // Full-vocabulary probabilities cannot be compared here: synthetic models put almost all mass on one token, and
      // the letters' float32 probabilities underflow to 0. Banning every other token leaves their softmax.
      const allowed = new Set(only ?? []);
      const restrict = only
        ? {
            logit_bias: Array.from({ length: vocabulary }, (_, id) => id)
              .filter((id) => !allowed.has(id))
              .map((id) => [id, false]),
            post_sampling_probs: true,
            n_probs: only.length,
            temperature: 1,
            top_k: 0,
            top_p: 1,
            min_p: 0,
          }
        : { temperature: 0 };
      const { parsed, ms } = await post("/completion", {
        prompt: tokens,
        n_predict: generate ? 1 : 0,
        cache_prompt: cachePrompt,
        ...restrict,
      });
      const body = parsed as CompletionBody;
      const top = body.completion_probabilities?.[0]?.top_probs ?? [];
      return {
        ms,
        evaluated: body.timings?.prompt_n ?? Number.NaN,
        passesMs: (body.timings?.prompt_ms ?? Number.NaN) + (body.timings?.predicted_ms ?? 0),
        probabilities: new Map(top.map((entry) => [entry.id, entry.prob])),
      };
    },
    async tokenize(text) {
      const { parsed } = await post("/tokenize", { content: text, add_special: true, parse_special: true });
      return (parsed as { tokens: number[] }).tokens;
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

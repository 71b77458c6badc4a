import http from "node:http";
import type { JevBenchRow } from "../../adapter/bench/bench-files.ts";
import { readConfig } from "../../adapter/src/engine/config.ts";
import { startAdapter } from "../../adapter/src/http/app.ts";
import { qualityRequests } from "./requests.ts";

/** One scored (or refused) JevBench item of a variant, as bench/out/quality.json keeps it. */
export type QualityItem = {
  id: string;
  label: string;
  option_ids: string[];
  probabilities: number[] | null;
  option_logits: number[] | null;
  /** Per option, max - min of its probability across the orders scored (debiased variants only). */
  spread: number[] | null;
  input_tokens: number | null;
  type: string;
  tier: string;
  category: string | null;
  /** The adapter's refusal, when it answered this item with an error. */
  error: { status: number; message: string } | null;
};

export type VariantSpec = {
  name: string;
  /** ADAPTER_PROMPT_TEMPLATE: the GGUF's own chat template, or the adapter's plain-text fallback prompt. */
  template: "auto" | "fallback";
  permutations: 1 | "all";
};

export type VariantResult = VariantSpec & {
  requests: number;
  sharedRequests: number;
  prompt: { version: string | null; chatTemplate: string | null };
  items: QualityItem[];
};

type DecisionResult = {
  id: string;
  option_ids: string[];
  probabilities: number[];
  option_logits: number[];
  spread?: number[];
  input_tokens: number;
  prompt_version: string;
  model: { chat_template?: string | null };
};

/**
 * One request with node:http, which sets no client deadline: a debiased request on a long state can take minutes
 * on a small, busy CPU, and fetch's five-minute headers timeout used to end the whole run.
 */
function post(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${url}/invocations`,
      { method: "POST", headers: { "content-type": "application/json", "content-length": payload.length } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          try {
            const json = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
            resolve({ status: response.statusCode ?? 0, json });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

function item(row: JevBenchRow, result: DecisionResult | null, error: QualityItem["error"]): QualityItem {
  return {
    id: row.id,
    label: row.answer ?? "",
    option_ids: result?.option_ids ?? row.options.map((option) => option.id),
    probabilities: result?.probabilities ?? null,
    option_logits: result?.option_logits ?? null,
    spread: result?.spread ?? null,
    input_tokens: result?.input_tokens ?? null,
    type: row.type ?? "",
    tier: row.tier ?? "",
    category: (row as { category?: string }).category ?? null,
    error,
  };
}

/**
 * Serves the model with the real adapter (its HTTP server and engine, in this process) under `env`, and sends
 * the variants' requests one at a time, as the console's evaluation runner does at concurrency 1.
 */
export async function runVariants(
  modelPath: string,
  env: Record<string, string>,
  template: VariantSpec["template"],
  variants: readonly VariantSpec[],
  rows: readonly JevBenchRow[],
  onRequest: () => void,
): Promise<Array<VariantResult & { seconds: number }>> {
  const config = readConfig({ ...env, ADAPTER_MODEL_PATH: modelPath, ADAPTER_PROMPT_TEMPLATE: template });
  const adapter = await startAdapter(config, { host: "127.0.0.1", port: 0, log: () => undefined });
  try {
    await adapter.ready;
    // Every variant's request on one state is sent back to back, so a later variant finds the state held (as a
    // repeated question on a state does in production); reuse that ends at the state keeps answers bit-identical.
    const plans = variants.map((variant) => ({
      variant,
      requests: qualityRequests(rows, variant.permutations, config.maxSharedDecisions),
      items: [] as QualityItem[],
      prompt: { version: null, chatTemplate: null } as VariantResult["prompt"],
      milliseconds: 0,
    }));
    const count = plans[0]?.requests.length ?? 0;
    for (let index = 0; index < count; index++) {
      for (const plan of plans) {
        const request = plan.requests[index]!;
        const started = performance.now();
        const { status, json } = await post(adapter.url, request.body);
        plan.milliseconds += performance.now() - started;
        const answers = (status === 200 ? (json.results ?? [json.result]) : []) as DecisionResult[];
        for (const [position, row] of request.rows.entries()) {
          const answer = answers[position] ?? null;
          if (answer) {
            plan.prompt.version = answer.prompt_version;
            plan.prompt.chatTemplate = answer.model.chat_template ?? null;
          }
          plan.items.push(item(row, answer, answer ? null : { status, message: String(json.error ?? "") }));
        }
        onRequest();
      }
    }
    const results = plans.map((plan) => ({
      ...plan.variant,
      requests: plan.requests.length,
      sharedRequests: plan.requests.filter((request) => request.rows.length > 1).length,
      prompt: plan.prompt,
      items: plan.items,
      seconds: plan.milliseconds / 1000,
    }));
    return results;
  } finally {
    await adapter.close();
  }
}

import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type Decision, type SingleDecisionResponse, softmax } from "@decision-console/adapter/contract";

export interface FakeEndpointOptions {
  /** Milliseconds each answer takes. */
  delayMs?: number;
  /** Answer 503 busy to the first N requests for a decision id, then score it. */
  busyFirst?: number;
  /** Answer this status (with an error body) for these decision ids. */
  failIds?: Record<string, number>;
}

export interface FakeEndpoint {
  url: string;
  /** Decision ids in the order their successful answers were sent. */
  scored: string[];
  requests: number;
  close: () => Promise<void>;
}

/** Logits that depend only on the decision and option ids, so every run of a test sees the same scores. */
export function fakeLogits(decision: Decision): number[] {
  return decision.options.map((option) => {
    const digest = createHash("sha256").update(`${decision.id}\u0000${option.id}`).digest();
    return (digest.readUInt16BE(0) / 65535) * 4 - 2;
  });
}

/**
 * A loopback stand-in for an adapter's `/invocations` decision route: the real response shape (validated by
 * the contract's schema on the runner's side), deterministic scores, an optional delay, busy answers and
 * failures on demand.
 */
export async function startFakeDecisionEndpoint(options: FakeEndpointOptions = {}): Promise<FakeEndpoint> {
  const busyLeft = new Map<string, number>();
  const state = { scored: [] as string[], requests: 0 };
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      state.requests += 1;
      const reply = (status: number, payload: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(payload));
      };
      let decision: Decision | undefined;
      try {
        decision = (JSON.parse(body) as { decision?: Decision }).decision;
      } catch {
        decision = undefined;
      }
      if (!decision?.options) return reply(400, { error: "Request must contain exactly one of decision or decisions" });
      const left = busyLeft.get(decision.id) ?? options.busyFirst ?? 0;
      if (left > 0) {
        busyLeft.set(decision.id, left - 1);
        return reply(503, { error: "model is busy; retry the request", retryable: true });
      }
      const failStatus = options.failIds?.[decision.id];
      if (failStatus) return reply(failStatus, { error: `refused ${decision.id}` });
      setTimeout(() => {
        const logits = fakeLogits(decision);
        const seconds = (options.delayMs ?? 0) / 1000;
        const answer: SingleDecisionResponse = {
          result: {
            id: decision.id,
            option_ids: decision.options.map((option) => option.id),
            probabilities: softmax(logits),
            option_logits: logits,
            answer_token_ids: decision.options.map((_, i) => 100 + i),
            allowed_token_mass: 0.9,
            full_vocab_argmax_id: 100,
            input_tokens: 42,
            prompt_sha256: "0".repeat(64),
            prompt_version: "fake-1",
            temperature: 1,
            forward_seconds: seconds,
            model: {
              file: "fake.gguf",
              bytes: 0,
              sha256: "0".repeat(64),
              manifest: null,
              architecture: null,
              name: "fake",
              backend: "cpu",
              gpu_layers: 0,
              total_layers: 0,
              threads: 1,
              context_size: 512,
              parallel: 1,
              chat_template: "fallback",
            },
          },
          timing: {
            batch_size: 1,
            prefix_tokens: 0,
            prefill_seconds: seconds,
            suffix_forward_seconds: 0,
            max_request_tokens: 8192,
            max_tokens_per_decision: 4096,
            total_seconds: seconds,
          },
        };
        state.scored.push(decision.id);
        reply(200, answer);
      }, options.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get scored() {
      return state.scored;
    },
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import { randomUUID } from "node:crypto";
import { captureFolderOf } from "../../../server/monitoring/capture-reader.ts";

/**
 * SageMaker capture records of decision traffic, written without an endpoint: three decision kinds of 2 to 4
 * options, the adapter's full answer in each record, an inference id per decision. For the Monitoring bench and the
 * capture reader's tests.
 */
export const trafficKinds = [
  { question: "Which team should handle this ticket?", options: ["billing", "tech", "sales"] },
  { question: "How urgent is this ticket?", options: ["p1", "p2", "p3", "p4"] },
  { question: "Does this message break the policy?", options: ["yes", "no"] },
];

/** A seeded generator, so every run writes the same traffic. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The inference id decision `index` is captured under. */
export const trafficInferenceId = (index: number) => `d-${index}`;

/** The options and probabilities of decision `index`, then its capture record's line. */
export function trafficDecision(at: Date, index: number, random: () => number) {
  const kind = trafficKinds[index % trafficKinds.length] ?? trafficKinds[0];
  if (!kind) throw new Error("no decision kinds");
  const logits = kind.options.map(() => random() * 6 - 3);
  const max = Math.max(...logits);
  const exp = logits.map((logit) => Math.exp(logit - max));
  const sum = exp.reduce((a, b) => a + b, 0);
  const probabilities = exp.map((value) => value / sum);
  const id = trafficInferenceId(index);
  const input = {
    decision: {
      id,
      state: `Customer ${index}: my invoice shows a charge I do not recognise from last week.`,
      question: kind.question,
      options: kind.options.map((option) => ({ id: option, description: `The ${option} answer` })),
    },
  };
  const output = {
    result: {
      id,
      option_ids: kind.options,
      probabilities,
      option_logits: logits,
      answer_token_ids: kind.options.map((_, i) => 330 + i),
      allowed_token_mass: 0.93,
      full_vocab_argmax_id: 330,
      input_tokens: 182,
      prompt_sha256: "0".repeat(64),
      prompt_version: "semif-v1",
      temperature: 1,
      forward_seconds: 0.04,
      model: { name: "bench", sha256: "1".repeat(64) },
    },
    timing: {
      batch_size: 1,
      prefix_tokens: 0,
      prefill_seconds: 0.03,
      suffix_forward_seconds: 0.01,
      max_request_tokens: 182,
      max_tokens_per_decision: 182,
      total_seconds: 0.03 + random() * 0.05,
    },
  };
  const line = JSON.stringify({
    captureData: {
      endpointInput: {
        observedContentType: "application/json",
        mode: "INPUT",
        data: JSON.stringify(input),
        encoding: "JSON",
      },
      endpointOutput: {
        observedContentType: "application/json",
        mode: "OUTPUT",
        data: JSON.stringify(output),
        encoding: "JSON",
      },
    },
    eventMetadata: { eventId: randomUUID(), inferenceId: id, inferenceTime: at.toISOString() },
    eventVersion: "0",
  });
  return { options: kind.options, probabilities, line };
}

const two = (n: number) => String(n).padStart(2, "0");

/** Where SageMaker would write an object of `endpointName`'s variant whose first record is at `at`. */
export function captureObjectKey(endpointName: string, variant: string, at: Date): string {
  const folder = `${at.getUTCFullYear()}/${two(at.getUTCMonth() + 1)}/${two(at.getUTCDate())}/${two(at.getUTCHours())}`;
  const name = `${two(at.getUTCMinutes())}-${two(at.getUTCSeconds())}-${String(at.getUTCMilliseconds()).padStart(3, "0")}`;
  return `${captureFolderOf(endpointName)}${variant}/${folder}/${name}-${randomUUID()}.jsonl`;
}

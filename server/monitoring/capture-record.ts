import { createHash } from "node:crypto";

/**
 * One decision as a capture record shows it: SageMaker's JSON Lines record (`captureData.endpointInput` /
 * `endpointOutput`, each `data` in its `encoding`; `eventMetadata.inferenceTime`) of a decision request
 * (`decision` or `decisions`) and the adapter's answer (`result` or `results`, in the same order).
 */
export interface CapturedDecision {
  at: Date;
  eventId: string;
  inferenceId: string | null;
  /** Position in a shared-state request (0 for a single decision). */
  item: number;
  /** The request as sent, hashed: a shadow's copy of an invocation has the production record's. */
  inputKey: string;
  decisionId: string;
  kind: string;
  question: string;
  options: string[];
  chosen: string;
  topProbability: number;
  /** In the order of `options`. */
  probabilities: number[];
  /** The container's own time for the request (`timing.total_seconds`), when the answer says it. */
  latencyMs: number | null;
}

export type CaptureRecordReading =
  | { ok: true; decisions: CapturedDecision[] }
  /** A record that is not a decision and its answer (a chat call, an error, input-only capture). */
  | { ok: false; why: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function payloadText(captured: unknown): string | undefined {
  if (!isObject(captured) || typeof captured.data !== "string") return undefined;
  return captured.encoding === "BASE64" ? Buffer.from(captured.data, "base64").toString("utf8") : captured.data;
}

function parsed(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The question and option set a decision answers: equal for decisions whose figures may be pooled. */
export function decisionKind(question: string, options: readonly string[]): string {
  return createHash("sha256")
    .update(JSON.stringify([question, options]))
    .digest("hex")
    .slice(0, 16);
}

/** Rounding in the answer's JSON may move the sum of a softmax's probabilities off 1 by about this much at most. */
const DISTRIBUTION_SUM_TOLERANCE = 0.01;

/** Probabilities a scorer can give: each in [0, 1], together about 1 (a softmax over the options). */
function isDistribution(probabilities: readonly number[]): boolean {
  const inRange = probabilities.every((p) => p >= 0 && p <= 1);
  const sum = probabilities.reduce((total, p) => total + p, 0);
  return inRange && Math.abs(sum - 1) <= DISTRIBUTION_SUM_TOLERANCE;
}

export function readCaptureRecord(line: string): CaptureRecordReading {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return { ok: false, why: "not JSON" };
  }
  if (!isObject(record) || !isObject(record.captureData) || !isObject(record.eventMetadata)) {
    return { ok: false, why: "not a capture record" };
  }
  const at = new Date(String(record.eventMetadata.inferenceTime));
  if (Number.isNaN(at.getTime())) return { ok: false, why: "no inferenceTime" };
  const inputText = payloadText(record.captureData.endpointInput);
  const input = parsed(inputText);
  const output = parsed(payloadText(record.captureData.endpointOutput));
  if (!isObject(input) || !isObject(output)) return { ok: false, why: "input or output missing or not JSON" };
  const asked = isObject(input.decision) ? [input.decision] : Array.isArray(input.decisions) ? input.decisions : null;
  const answered = isObject(output.result) ? [output.result] : Array.isArray(output.results) ? output.results : null;
  if (!asked || !answered || asked.length !== answered.length) return { ok: false, why: "not a decision answer" };
  const totalSeconds = isObject(output.timing) ? output.timing.total_seconds : undefined;
  const latencyMs = typeof totalSeconds === "number" && Number.isFinite(totalSeconds) ? totalSeconds * 1000 : null;
  const inputKey = createHash("sha256")
    .update(inputText ?? "")
    .digest("hex")
    .slice(0, 32);
  const decisions: CapturedDecision[] = [];
  for (const [item, decision] of asked.entries()) {
    const result = answered[item];
    if (!isObject(decision) || !isObject(result)) return { ok: false, why: "not a decision answer" };
    const options = result.option_ids;
    const probabilities = result.probabilities;
    if (
      !Array.isArray(options) ||
      !Array.isArray(probabilities) ||
      options.length < 2 ||
      options.length !== probabilities.length ||
      !options.every((option) => typeof option === "string") ||
      !probabilities.every((p) => typeof p === "number" && Number.isFinite(p))
    ) {
      return { ok: false, why: "result without option_ids and probabilities" };
    }
    if (!isDistribution(probabilities as number[])) {
      return { ok: false, why: "probabilities that are not a distribution (each in [0, 1], summing to 1)" };
    }
    const scores = probabilities as number[];
    const ids = options as string[];
    let best = 0;
    for (let i = 1; i < scores.length; i++) if ((scores[i] ?? 0) > (scores[best] ?? 0)) best = i;
    const question = typeof decision.question === "string" ? decision.question : "";
    decisions.push({
      at,
      eventId: String(record.eventMetadata.eventId ?? ""),
      inferenceId: typeof record.eventMetadata.inferenceId === "string" ? record.eventMetadata.inferenceId : null,
      item,
      inputKey,
      decisionId: typeof result.id === "string" ? result.id : String(decision.id ?? ""),
      kind: decisionKind(question, ids),
      question,
      options: ids,
      chosen: ids[best] ?? "",
      topProbability: scores[best] ?? 0,
      probabilities: scores,
      latencyMs,
    });
  }
  return { ok: true, decisions };
}

import { SYSTEMONE_DEFAULT_MAX_QUESTIONS, SYSTEMONE_MAX_LABELS } from "../contract/systemone.ts";

/** Settings of the APIs beyond SemIf, part of the adapter's configuration (read once at start). */
export type SystemOneSettings = {
  /** ADAPTER_PERMUTATIONS: option orders scored per question when a request does not say (1 = no debiasing). */
  permutations: number;
  /** SYSTEMONE_MAX_QUESTIONS: questions of one /v1/systemone request. */
  maxQuestions: number;
};

function integerInRange(env: Record<string, string | undefined>, name: string, fallback: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new Error(`${name} must be an integer from 1 to ${max}, got "${raw}"`);
  }
  return value;
}

export function readSystemOneSettings(env: Record<string, string | undefined>): SystemOneSettings {
  return {
    permutations: integerInRange(env, "ADAPTER_PERMUTATIONS", 1, SYSTEMONE_MAX_LABELS),
    maxQuestions: integerInRange(env, "SYSTEMONE_MAX_QUESTIONS", SYSTEMONE_DEFAULT_MAX_QUESTIONS, 1024),
  };
}

/**
 * The SemIf settings a decision endpoint reads from its environment (DESIGN §4), with SemIf's names and defaults.
 * The adapter parses them at start (`semif-environment.ts`); the console sets them on deploy and reads them back from
 * the model. Free of zod, so a browser page can import the names alone.
 */
export const semifVariables = {
  maxTokens: "SEMIF_MAX_TOKENS",
  maxRequestTokens: "SEMIF_MAX_REQUEST_TOKENS",
  maxSharedDecisions: "SEMIF_MAX_SHARED_DECISIONS",
  maxBodyBytes: "SEMIF_MAX_BODY_BYTES",
  maxInFlight: "SEMIF_MAX_IN_FLIGHT",
  temperature: "SEMIF_TEMPERATURE",
} as const;

export type SemifSetting = keyof typeof semifVariables;
/** The integer limits; the temperature is the one real-valued setting. */
export type SemifLimit = Exclude<SemifSetting, "temperature">;

export const semifDefaults: Readonly<Record<SemifSetting, number>> = {
  maxTokens: 4096,
  maxRequestTokens: 8192,
  maxSharedDecisions: 8,
  maxBodyBytes: 262_144,
  maxInFlight: 1,
  temperature: 1,
};

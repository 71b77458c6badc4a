import { z } from "zod";
import { type SemifSetting, semifDefaults, semifVariables } from "./semif-settings.ts";

const kinds = {
  integer: { accepts: (value: number) => Number.isInteger(value) && value >= 1, words: "a positive integer" },
  number: { accepts: (value: number) => Number.isFinite(value) && value > 0, words: "a positive number" },
};

/** An unset or empty variable takes the default; anything else must be of its kind. */
function variable(setting: SemifSetting, kind: keyof typeof kinds) {
  const name = semifVariables[setting];
  const { accepts, words } = kinds[kind];
  return z
    .string()
    .optional()
    .transform((raw, context) => {
      if (raw === undefined || raw === "") return semifDefaults[setting];
      const value = Number(raw);
      if (accepts(value)) return value;
      context.addIssue({ code: "custom", message: `${name} must be ${words}, got "${raw}"` });
      return z.NEVER;
    });
}

export const semifEnvironmentSchema = z
  .object({
    [semifVariables.maxInFlight]: variable("maxInFlight", "integer"),
    [semifVariables.maxTokens]: variable("maxTokens", "integer"),
    [semifVariables.maxRequestTokens]: variable("maxRequestTokens", "integer"),
    [semifVariables.maxSharedDecisions]: variable("maxSharedDecisions", "integer"),
    [semifVariables.maxBodyBytes]: variable("maxBodyBytes", "integer"),
    [semifVariables.temperature]: variable("temperature", "number"),
  })
  .transform((env) => ({
    maxTokens: env.SEMIF_MAX_TOKENS,
    maxRequestTokens: env.SEMIF_MAX_REQUEST_TOKENS,
    maxSharedDecisions: env.SEMIF_MAX_SHARED_DECISIONS,
    maxBodyBytes: env.SEMIF_MAX_BODY_BYTES,
    maxInFlight: env.SEMIF_MAX_IN_FLIGHT,
    temperature: env.SEMIF_TEMPERATURE,
  }));
export type SemifSettings = z.output<typeof semifEnvironmentSchema>;

/** The settings of `env`; throws with the first bad variable's name and value. */
export function readSemifEnvironment(env: Record<string, string | undefined>): SemifSettings {
  const parsed = semifEnvironmentSchema.safeParse(env);
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? "invalid SEMIF_* settings");
  return parsed.data;
}

import { z } from "zod";

/** `GET /api/settings`: the facts of this console's deployment that forms need (no credentials, no URLs). */
export const consoleSettingsSchema = z.object({
  mode: z.enum(["local", "aws"]),
  region: z.string().nullable(),
  /** Names the console's IAM policy allows start with this (CONSOLE_RESOURCE_PREFIX); null: any name. */
  resourceNamePrefix: z.string().nullable(),
  /** What limits this console's first run (no sandbox for builds, no trained model), each with its fix: `npm start` tells it. */
  firstRunLimits: z.array(z.string()),
});
export type ConsoleSettingsView = z.infer<typeof consoleSettingsSchema>;

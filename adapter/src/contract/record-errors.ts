import { z } from "zod";
import { errorBodySchema } from "./common.ts";

/**
 * `ADAPTER_RECORD_ERRORS` in a transform job's Environment. `fail` (the default, SageMaker's behaviour): a refused
 * record of a JSON Lines body fails the whole body, so the job fails naming the record. `inline`: the refused
 * record is answered by one line, `RecordErrorLine`, and the body by 200, so a job over labelled data (an
 * evaluation) finishes and records each refusal with its item.
 */
export const RECORD_ERRORS_VARIABLE = "ADAPTER_RECORD_ERRORS";
export const recordErrorModes = ["fail", "inline"] as const;
export type RecordErrorMode = (typeof recordErrorModes)[number];

/** The line answered for a refused record under `ADAPTER_RECORD_ERRORS=inline`: the error body it would get alone, and that answer's status. */
export const recordErrorLineSchema = errorBodySchema.extend({ status: z.number().int().min(400).max(599) });
export type RecordErrorLine = z.infer<typeof recordErrorLineSchema>;

/** The mode named by `raw` (unset or empty: `fail`); anything else stops start-up. */
export function readRecordErrorMode(raw: string | undefined): RecordErrorMode {
  if (raw === undefined || raw === "") return "fail";
  if ((recordErrorModes as readonly string[]).includes(raw)) return raw as RecordErrorMode;
  throw new Error(`${RECORD_ERRORS_VARIABLE} must be "fail" or "inline", got "${raw}"`);
}

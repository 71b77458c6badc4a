import type { z } from "zod";
import { type SystemOneRequest, systemOneRequestSchema } from "./systemone.ts";

/**
 * TypeSafe's error bodies: a request that fails validation is answered 422 `{"detail": [{loc, msg, type}]}` (the
 * OpenAPI document's HTTPValidationError); other refusals carry `{"detail": {"error_type", "message"}}`, the shape
 * typesafe-sdk's `extract_message` reads (`detail.message`).
 */
export type ValidationIssue = { loc: (string | number)[]; msg: string; type: string };
export type SystemOneErrorBody = { detail: ValidationIssue[] } | { detail: { error_type: string; message: string } };

/** A zod issue as one sentence that names the field, e.g. `questions.team.criteria: must hold 2-255 choices`. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map((part, i) => (typeof part === "number" ? `[${part}]` : `${i ? "." : ""}${String(part)}`));
  const field = path.join("") || "body";
  return `${field}: ${issue.message}`;
}

function issueType(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type" && issue.input === undefined) return "missing";
  return issue.code;
}

export function validationIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({
    loc: ["body", ...issue.path.map((part) => (typeof part === "number" ? part : String(part)))],
    msg: issue.input === undefined && issue.code === "invalid_type" ? "Field required" : issue.message,
    type: issueType(issue),
  }));
}

export type SystemOneParse = { ok: true; value: SystemOneRequest } | { ok: false; detail: ValidationIssue[] };

/** Validates a systemone body; a failure lists every problem with its location (answered 422). */
export function parseSystemOneRequest(payload: unknown): SystemOneParse {
  const parsed = systemOneRequestSchema.safeParse(payload, { reportInput: true });
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, detail: validationIssues(parsed.error) };
}

export function systemOneError(errorType: string, message: string): SystemOneErrorBody {
  return { detail: { error_type: errorType, message } };
}

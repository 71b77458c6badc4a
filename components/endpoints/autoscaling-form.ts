import {
  type Autoscaling,
  type AutoscalingRequestInput,
  autoscalingRequestSchema,
} from "@/contract/endpoints/autoscaling.ts";
import { type FieldsByPath, type FormProblems, schemaProblems } from "../forms/schema-problems.ts";

/** The autoscaling form as typed: numbers as strings; scale to zero only ever on for an asynchronous endpoint. */
export interface AutoscalingForm {
  scaleToZero: boolean;
  min: string;
  max: string;
  target: string;
  backlog: string;
  scaleInDisabled: boolean;
  scaleIn: string;
  scaleOut: string;
}

/**
 * Starts at the saved autoscaling. Scale to zero follows the queue (ApproximateBacklogSizePerInstance,
 * HasBacklogWithoutCapacity), which only an asynchronous endpoint has: a real-time endpoint's form never starts
 * with it on, whatever was read.
 */
export function initialAutoscalingForm(initial: Autoscaling | null, asynchronous: boolean): AutoscalingForm {
  return {
    scaleToZero: asynchronous && (initial?.scaleToZero ?? false),
    min: String(initial?.minCapacity || 1),
    max: String(initial?.maxCapacity ?? 2),
    target: String(initial?.targetInvocationsPerInstance ?? 60),
    backlog: String(initial?.targetBacklogPerInstance ?? 5),
    scaleInDisabled: initial?.scaleInDisabled ?? false,
    scaleIn: String(initial?.scaleInCooldownSeconds ?? 300),
    scaleOut: String(initial?.scaleOutCooldownSeconds ?? 60),
  };
}

/** Whether the card shows scale to zero as on: only for an asynchronous endpoint. */
export function showsScaleToZero(autoscaling: Autoscaling | null, asynchronous: boolean): boolean {
  return asynchronous && (autoscaling?.scaleToZero ?? false);
}

/** The PUT body: scale to zero (minimum 0, backlog target) for an asynchronous endpoint that asks for it only. */
export function autoscalingRequestOf(form: AutoscalingForm, asynchronous: boolean): AutoscalingRequestInput {
  const scaleToZero = asynchronous && form.scaleToZero;
  return {
    minCapacity: scaleToZero ? 0 : Number(form.min),
    maxCapacity: Number(form.max),
    ...(scaleToZero
      ? { scaleToZero: true, targetBacklogPerInstance: Number(form.backlog) }
      : { targetInvocationsPerInstance: Number(form.target), scaleInDisabled: form.scaleInDisabled }),
    scaleInCooldownSeconds: Number(form.scaleIn),
    scaleOutCooldownSeconds: Number(form.scaleOut),
  };
}

export type AutoscalingField = Exclude<keyof AutoscalingForm, "scaleToZero">;

export const autoscalingFieldLabels: Readonly<Record<AutoscalingField, string>> = {
  min: "Minimum instances",
  max: "Maximum instances",
  target: "Target invocations per instance per minute",
  backlog: "Target queued requests per instance",
  scaleInDisabled: "Protect from scale-in",
  scaleIn: "Scale-in cooldown (s)",
  scaleOut: "Scale-out cooldown (s)",
};

const fieldsByPath: FieldsByPath<AutoscalingField> = {
  minCapacity: "min",
  maxCapacity: "max",
  targetInvocationsPerInstance: "target",
  targetBacklogPerInstance: "backlog",
  scaleInDisabled: "scaleInDisabled",
  scaleInCooldownSeconds: "scaleIn",
  scaleOutCooldownSeconds: "scaleOut",
};

/** What autoscalingRequestSchema, the server's own check, finds in the PUT body the form stands for, at each field. */
export function autoscalingProblems(form: AutoscalingForm, asynchronous: boolean): FormProblems<AutoscalingField> {
  return schemaProblems(
    autoscalingRequestSchema,
    autoscalingRequestOf(form, asynchronous),
    fieldsByPath,
    autoscalingFieldLabels,
  );
}

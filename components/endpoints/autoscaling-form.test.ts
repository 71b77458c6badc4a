import { describe, expect, it } from "vitest";
import { type Autoscaling, autoscalingRequestSchema } from "@/contract/endpoints/autoscaling.ts";
import {
  autoscalingProblems,
  autoscalingRequestOf,
  initialAutoscalingForm,
  showsScaleToZero,
} from "./autoscaling-form.ts";

/** What Application Auto Scaling reads back when the scale-to-zero policies are on a variant. */
const scaledToZero: Autoscaling = {
  minCapacity: 0,
  maxCapacity: 2,
  targetInvocationsPerInstance: null,
  scaleInDisabled: false,
  scaleInCooldownSeconds: 300,
  scaleOutCooldownSeconds: 60,
  scaleToZero: true,
  targetBacklogPerInstance: 5,
};

describe("autoscaling form", () => {
  it("keeps scale to zero of an asynchronous endpoint", () => {
    const form = initialAutoscalingForm(scaledToZero, true);
    expect(showsScaleToZero(scaledToZero, true)).toBe(true);
    expect(autoscalingRequestOf(form, true)).toMatchObject({ minCapacity: 0, scaleToZero: true });
  });

  it("never shows or sends scale to zero for a real-time endpoint, whatever was read", () => {
    const form = initialAutoscalingForm(scaledToZero, false);
    expect(form.scaleToZero).toBe(false);
    expect(showsScaleToZero(scaledToZero, false)).toBe(false);
    const body = autoscalingRequestOf({ ...form, scaleToZero: true }, false);
    expect(body).toMatchObject({ minCapacity: 1, targetInvocationsPerInstance: 60 });
    expect(body).not.toHaveProperty("scaleToZero");
    expect(autoscalingRequestSchema.safeParse(body).success).toBe(true);
  });

  it("checks each field by the request schema as it is typed, in plain words, at the field", () => {
    const form = initialAutoscalingForm(null, false);
    expect(autoscalingProblems(form, false)).toEqual({ fields: {}, summary: [] });
    expect(autoscalingProblems({ ...form, min: "0", scaleIn: "-1", target: "" }, false).fields).toEqual({
      min: "Must be at least 1; 0 goes only with scale to zero (minCapacity 0 and scaleToZero together).",
      target: "Must be above 0.",
      scaleIn: "Must be at least 0.",
    });
    expect(autoscalingProblems({ ...form, min: "3", max: "2" }, false)).toEqual({
      fields: { max: "Must be at least the minimum instance count (minCapacity)." },
      summary: ["Maximum instances: Must be at least the minimum instance count (minCapacity)."],
    });
  });
});

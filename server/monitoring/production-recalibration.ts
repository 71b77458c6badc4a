import type { DescribeModelOutput } from "@aws-sdk/client-sagemaker";
import { semifVariables } from "@decision-console/adapter/contract";
import type { Recalibration } from "../../contract/endpoints/realised-quality.ts";
import { fitTemperature } from "../evaluate/metrics/temperature.ts";
import type { RealisedLabel } from "./ground-truth-store.ts";
import { outcomesOf } from "./realised-quality.ts";

/** The temperature the model's decisions are scored at: its SEMIF_TEMPERATURE, else the adapter's default of 1. */
export function servedTemperature(model: DescribeModelOutput | null): number {
  const container = model?.PrimaryContainer ?? model?.Containers?.[0];
  const value = Number(container?.Environment?.[semifVariables.temperature]);
  return Number.isFinite(value) && value > 0 ? value : 1;
}

/**
 * The most labelled decisions a fit reads, the newest of the window: one parameter is fitted, and 10,000 labels
 * (5,000 per held-out half) pin it to a few thousandths, while the fit's cost grows with every label (each of its
 * three golden-section searches reads them all some 40 times) and the view must stay fast with 500,000.
 */
export const RECALIBRATION_MAX_LABELS = 10_000;

/**
 * The evaluation's temperature fit on labelled production decisions (the newest RECALIBRATION_MAX_LABELS, as
 * `newestLabels` reads them). Their probabilities are softmax(z / T0) at the
 * served T0, and the fit works on their logs (z / T0 up to a constant), so it finds T with softmax(z / (T0 T)): the
 * temperature to serve is T0 T, rounded to the thousandth as the evaluation page offers it.
 */
export function productionRecalibration(
  labels: readonly RealisedLabel[],
  optionsOf: (kind: string) => readonly string[] | undefined,
  currentTemperature: number,
): Recalibration | null {
  const outcomes = labels.flatMap((label) => {
    const options = optionsOf(label.kind);
    return options ? outcomesOf([label], options) : [];
  });
  const fit = fitTemperature(outcomes);
  if (!fit) return null;
  const offered = Number((currentTemperature * fit.temperature).toFixed(3));
  return { currentTemperature, fit, offeredTemperature: fit.heldOut?.improves ? offered : null };
}

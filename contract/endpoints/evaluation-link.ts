import { z } from "zod";

/**
 * Why an endpoint's realised quality is compared with an evaluation run: the endpoint was deployed from a registry
 * version with that evaluation attached, promoted from a shadow test of such a version, updated to one, or an
 * operator chose the run.
 */
export const evaluationLinkReasonSchema = z.enum(["deployed", "promoted", "updated", "chosen"]);
export type EvaluationLinkReason = z.infer<typeof evaluationLinkReasonSchema>;

/** `POST /api/endpoints/[name]/evaluation`: compare production with this run, one that scored the endpoint. */
export const chooseEvaluationSchema = z.strictObject({ runId: z.string().min(1).max(100) });
export type ChooseEvaluation = z.infer<typeof chooseEvaluationSchema>;

export const evaluationLinkSchema = z.object({
  endpointName: z.string(),
  runId: z.string(),
  why: evaluationLinkReasonSchema,
  by: z.string(),
  at: z.iso.datetime(),
});
export type EvaluationLink = z.infer<typeof evaluationLinkSchema>;

/**
 * Where the evaluation realised figures stand beside comes from: the endpoint's newest link, else the run the kind's
 * drift baseline was set from.
 */
export const evaluationBasisSchema = z.object({
  why: z.union([evaluationLinkReasonSchema, z.literal("drift baseline")]),
  by: z.string(),
  at: z.string(),
});
export type EvaluationBasis = z.infer<typeof evaluationBasisSchema>;

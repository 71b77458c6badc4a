import { z } from "zod";
import { includeEvaluationSchema } from "../evaluate/evaluation-traffic.ts";

/** How the review queue orders the unlabelled production decisions it offers. */
export const reviewOrders = ["lowest-confidence", "random", "shadow-disagrees"] as const;
export type ReviewOrder = (typeof reviewOrders)[number];

/** The most decisions one look at the queue returns. */
export const MAX_REVIEW_LIMIT = 50;
/** A state longer than this is cut for the queue (the label stores the decision whole). */
export const MAX_REVIEW_STATE_CHARS = 20_000;

export const reviewQuerySchema = z.object({
  order: z.enum(reviewOrders).default("lowest-confidence"),
  /** One decision kind only (the Monitoring view's kind id). */
  kind: z.string().min(1).max(64).optional(),
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${MAX_REVIEW_LIMIT}` })
    .int(`limit must be a whole number from 1 to ${MAX_REVIEW_LIMIT}`)
    .min(1, `limit must be a whole number from 1 to ${MAX_REVIEW_LIMIT}`)
    .max(MAX_REVIEW_LIMIT, `limit must be a whole number from 1 to ${MAX_REVIEW_LIMIT}`)
    .default(10),
  /** Whether the console's evaluation runner's requests are queued too (left out by default: they are not production). */
  includeEvaluation: includeEvaluationSchema,
});
export type ReviewQuery = z.infer<typeof reviewQuerySchema>;

/** A captured decision's key: its capture object, the record's line in it (0-based), the decision's position. */
export const capturedDecisionKeySchema = z.object({
  objectKey: z.string().min(1).max(1024),
  line: z.number().int().min(0),
  item: z.number().int().min(0),
});
export type CapturedDecisionKey = z.infer<typeof capturedDecisionKeySchema>;

export const reviewItemSchema = capturedDecisionKeySchema.extend({
  variant: z.string(),
  at: z.string(),
  kind: z.string(),
  decisionId: z.string(),
  question: z.string(),
  options: z.array(z.object({ id: z.string(), description: z.string() })),
  /** In the order of `options`. */
  probabilities: z.array(z.number()),
  chosen: z.string(),
  topProbability: z.number(),
  /** The state as the model read it (a JSON state rendered with sorted keys), cut at MAX_REVIEW_STATE_CHARS. */
  state: z.string(),
  stateTruncated: z.boolean(),
  /** What the shadow chose for the same request, when the decision was paired with a shadow answer. */
  shadowChosen: z.string().nullable(),
});
export type ReviewItem = z.infer<typeof reviewItemSchema>;

export const reviewLabelSchema = capturedDecisionKeySchema.extend({
  kind: z.string(),
  /** The option id a person gave; null when skipped. */
  label: z.string().nullable(),
  chosen: z.string(),
  labelledBy: z.string(),
  labelledAt: z.string(),
});
export type ReviewLabel = z.infer<typeof reviewLabelSchema>;

export const reviewQueueSchema = z.object({
  endpointName: z.string(),
  order: z.enum(reviewOrders),
  kind: z.string().nullable(),
  /** Unlabelled production decisions kept (7 days), of the kind when one is given; `items` are the first of them. */
  unlabelled: z.number().int(),
  items: z.array(reviewItemSchema),
  /**
   * Decisions left out of `items` because their capture object is missing or no longer holds them (deleted or
   * rewritten in the bucket); the queue offers the next ones instead.
   */
  unreadable: z.number().int(),
  /** Labels per decision kind: given (an option) and skipped. */
  kinds: z.array(
    z.object({
      kind: z.string(),
      question: z.string(),
      options: z.array(z.string()),
      labelled: z.number().int(),
      skipped: z.number().int(),
    }),
  ),
  /** The latest labels, newest first, with who gave them. */
  recent: z.array(reviewLabelSchema),
});
export type ReviewQueue = z.infer<typeof reviewQueueSchema>;

/** `POST .../review/labels`: one of the decision's option ids, or `skip: true`. */
export const labelDecisionSchema = capturedDecisionKeySchema
  .extend({
    label: z.string().min(1).max(200).optional(),
    skip: z.literal(true).optional(),
  })
  .strict()
  .refine((body) => (body.label === undefined) !== (body.skip === undefined), {
    message: "give exactly one of label (an option id) and skip: true",
  });
export type LabelDecisionRequest = z.infer<typeof labelDecisionSchema>;

export const exportReviewSchema = z.strictObject({
  kind: z.string().min(1).max(64),
  name: z.string().trim().min(1, "give the dataset a name").max(200),
});
export type ExportReviewRequest = z.infer<typeof exportReviewSchema>;

export const exportReviewResultSchema = z.object({
  datasetId: z.string(),
  name: z.string(),
  itemCount: z.number().int(),
});
export type ExportReviewResult = z.infer<typeof exportReviewResultSchema>;

/** Live accuracy of one decision kind over its labelled production decisions (skipped ones left out). */
export const labelledAccuracySchema = z.object({
  labelled: z.number().int(),
  /** Share where the chosen option is the label; null without labels. */
  accuracy: z.number().nullable(),
  /** Expected calibration error over the evaluation's reliability bins (tenths of the chosen probability). */
  ece: z.number().nullable(),
});
export type LabelledAccuracy = z.infer<typeof labelledAccuracySchema>;

import { z } from "zod";
import { includeEvaluationSchema } from "../evaluate/evaluation-traffic.ts";
import { labelledAccuracySchema } from "./review.ts";

/** The windows the Monitoring view reads, and the interval each is drawn in (about 60 to 100 points). */
export const monitoringWindows = {
  "1h": { seconds: 3_600, intervalSeconds: 60 },
  "6h": { seconds: 21_600, intervalSeconds: 300 },
  "24h": { seconds: 86_400, intervalSeconds: 900 },
  "7d": { seconds: 604_800, intervalSeconds: 7_200 },
} as const;
export type MonitoringWindow = keyof typeof monitoringWindows;
export const monitoringWindowIds = Object.keys(monitoringWindows) as MonitoringWindow[];

/** Top probabilities are kept to the hundredth, so the fallback rate at a threshold in hundredths is exact. */
export const TOP_PROBABILITY_BINS = 100;
/** The distribution chart's bars: twentieths of [0, 1]. */
export const DISTRIBUTION_BARS = 20;

/** The threshold an endpoint has until a team sets one. */
export const DEFAULT_DECISION_THRESHOLD = 0.5;

const thresholdRule = "threshold must be a number from 0.01 to 0.99";
/** A decision threshold: hundredths from 0.01 to 0.99 (top probabilities are kept to the hundredth). */
export const decisionThresholdSchema = z
  .number({ error: thresholdRule })
  .min(0.01, thresholdRule)
  .max(0.99, thresholdRule)
  .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-9, "threshold is kept to two decimals");

/** The decision kinds one look shows (most decisions first); the rest are on further pages or found by search. */
export const KINDS_PER_PAGE = 10;
const kindPageRule = "kindPage must be a whole number from 1";

export const monitoringQuerySchema = z.object({
  /**
   * Without it, the data's span: the smallest window that holds every decision captured over the last 7 days
   * (7 d when none was), so a first look is never an empty 24 h.
   */
  window: z.enum(monitoringWindowIds as [MonitoringWindow, ...MonitoringWindow[]]).optional(),
  /**
   * A decision whose top probability is below this falls back (to a person, a rule, a default). Without it, the
   * endpoint's stored threshold (PUT /api/endpoints/[name]/threshold), or 0.5 when none is stored.
   */
  threshold: z.coerce.number({ error: thresholdRule }).pipe(decisionThresholdSchema).optional(),
  /** A variant's decisions only (a shadow's, say); all variants together without it. */
  variant: z.string().min(1).max(63).optional(),
  /** Only the decision kinds whose question contains this text (ignoring case). */
  kindSearch: z.string().trim().max(200, "kindSearch is at most 200 characters").optional(),
  /** Which page of KINDS_PER_PAGE decision kinds, most decisions first. */
  kindPage: z.coerce.number({ error: kindPageRule }).int(kindPageRule).min(1, kindPageRule).default(1),
  /** Whether the console's evaluation runner's requests (InferenceId `dc-eval-…`) are counted too; not by default. */
  includeEvaluation: includeEvaluationSchema,
});
export type MonitoringQuery = z.infer<typeof monitoringQuerySchema>;

const latencySchema = z.object({
  /** Mean of the container's own time per request (the adapter's `timing.total_seconds`). */
  meanMs: z.number(),
  /** The 95th percentile (of the Monitoring view's rollups: to within 19%, latencies are kept in quarter-octave bins). */
  p95Ms: z.number(),
});

export const monitoringIntervalSchema = z.object({
  at: z.string(),
  decisions: z.number().int(),
  belowThreshold: z.number().int(),
  /** Decisions per chosen option (the option with the highest probability). */
  chosen: z.record(z.string(), z.number().int()),
  latency: latencySchema.nullable(),
});
export type MonitoringInterval = z.infer<typeof monitoringIntervalSchema>;

/**
 * Where a window's decisions came from, by the InferenceId they were captured with: the console's gateway
 * (`dc-gw-…`), its evaluation runner (`dc-eval-…`, counted only when asked for) or any other caller (direct).
 * Read from the single decisions, kept 7 days (DECISION_RETENTION_MS).
 */
export const trafficSourcesSchema = z.object({
  direct: z.number().int(),
  gateway: z.number().int(),
  evaluation: z.number().int(),
});
export type TrafficSources = z.infer<typeof trafficSourcesSchema>;

export const decisionKindSummarySchema = z.object({
  /** The question and its option set, hashed: decisions of one kind are comparable. */
  kind: z.string(),
  question: z.string(),
  options: z.array(z.string()),
  decisions: z.number().int(),
  belowThreshold: z.number().int(),
  chosen: z.array(z.object({ option: z.string(), decisions: z.number().int() })),
  /** Decisions per twentieth of the top probability, from [0, 0.05) to [0.95, 1]. */
  topProbability: z.array(z.object({ from: z.number(), to: z.number(), decisions: z.number().int() })),
  latency: latencySchema.nullable(),
  intervals: z.array(monitoringIntervalSchema),
  /** Accuracy and calibration over the window's production decisions of this kind labelled in the review queue. */
  labelled: labelledAccuracySchema.nullable().optional(),
  sources: trafficSourcesSchema,
});
export type DecisionKindSummary = z.infer<typeof decisionKindSummarySchema>;

/** The copies of production's requests the shadow was sent over the window, and how many got no answer. */
export const shadowCallsSchema = z.object({ copies: z.number().int(), failed: z.number().int() });
export type ShadowCalls = z.infer<typeof shadowCallsSchema>;

/** A shadow test: the shadow variant's answers to copies of production's requests, paired with production's. */
export const shadowComparisonSchema = z.object({
  production: z.string(),
  shadow: z.string(),
  pairs: z.number().int(),
  /** Share of pairs where both chose the same option; null without pairs. */
  agreement: z.number().nullable(),
  /** Mean |p_production - p_shadow| of the option production chose. */
  meanProbabilityDifference: z.number().nullable(),
  unpairedProduction: z.number().int(),
  unpairedShadow: z.number().int(),
  productionLatency: latencySchema.nullable(),
  shadowLatency: latencySchema.nullable(),
  byKind: z.array(z.object({ kind: z.string(), pairs: z.number().int(), agreement: z.number() })),
  /**
   * The shadow's calls from its CloudWatch metrics: a failed copy leaves no capture record to pair, so agreement
   * alone would hide it. Null when CloudWatch could not be read.
   */
  calls: shadowCallsSchema.nullable(),
});
export type ShadowComparison = z.infer<typeof shadowComparisonSchema>;

export const monitoringResponseSchema = z.object({
  endpointName: z.string(),
  /** The window read: the one asked for, or the data's span when none was. */
  window: z.enum(monitoringWindowIds as [MonitoringWindow, ...MonitoringWindow[]]),
  windowChosenBy: z.enum(["query", "data-span"]),
  /** The first and last minute holding a decision over the last 7 days (of what the view counts); null without any. */
  dataSpan: z.object({ from: z.string(), to: z.string() }).nullable(),
  includeEvaluation: z.boolean(),
  from: z.string(),
  to: z.string(),
  intervalSeconds: z.number().int(),
  threshold: z.number(),
  /** The endpoint's own threshold, when one is stored (what the page starts from), and who set it. */
  storedThreshold: z.object({ threshold: z.number(), setBy: z.string(), setAt: z.string() }).nullable(),
  variant: z.string().nullable(),
  /** Where the figures come from: the capture folder, and how far the console's background reader has got. */
  source: z.object({
    destination: z.string().nullable(),
    objectsRead: z.number().int(),
    /** Objects the reader's last look read. */
    newObjects: z.number().int(),
    /** The reader's last look left objects to read: the page looks again soon. */
    moreToRead: z.boolean(),
    unreadableRecords: z.number().int(),
    /** The reader's last look: when, and the objects it listed and had not read yet; nulls before its first. */
    reading: z.object({ unreadObjects: z.number().int().nullable(), lookedAt: z.string().nullable() }),
  }),
  variants: z.array(z.object({ variant: z.string(), decisions: z.number().int() })),
  decisions: z.number().int(),
  belowThreshold: z.number().int(),
  sources: trafficSourcesSchema,
  /** One page of the window's decision kinds (matching `kindSearch`), most decisions first. */
  kinds: z.array(decisionKindSummarySchema),
  kindPage: z.object({
    page: z.number().int(),
    perPage: z.number().int(),
    /** Kinds matching the search (all kinds without one); `kinds` is page `page` of them. */
    matching: z.number().int(),
    /** Every kind decided in the window. */
    total: z.number().int(),
    search: z.string().nullable(),
  }),
  /** The endpoint's shadow test over the window, when it runs one (DescribeEndpoint's ShadowProductionVariants). */
  shadow: shadowComparisonSchema.nullable(),
});
export type MonitoringResponse = z.infer<typeof monitoringResponseSchema>;

/** `PUT /api/endpoints/[name]/threshold`: the endpoint's decision threshold, kept by the console. */
export const setThresholdSchema = z.strictObject({ threshold: decisionThresholdSchema });
export type SetThresholdRequest = z.infer<typeof setThresholdSchema>;
export const endpointThresholdSchema = z.object({
  endpointName: z.string(),
  threshold: z.number(),
  setBy: z.string(),
  setAt: z.string(),
});
export type EndpointThreshold = z.infer<typeof endpointThresholdSchema>;
/** `GET /api/endpoints/[name]/threshold`: the threshold every view reads the endpoint's decisions against. */
export const thresholdInUseSchema = z.object({
  endpointName: z.string(),
  threshold: z.number(),
  /** Who kept it and when; null while the endpoint has the default. */
  kept: z.object({ setBy: z.string(), setAt: z.string() }).nullable(),
});
export type ThresholdInUse = z.infer<typeof thresholdInUseSchema>;

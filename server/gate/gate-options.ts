import { parseArgs } from "node:util";
import { z } from "zod";
import type { GateLimits } from "./gate-checks.ts";
import { GateFailure } from "./gate-failure.ts";

export const GATE_USAGE = `Usage: npx decision-console gate --dataset <file.jsonl|csv> --endpoint <name>
         (--baseline-endpoint <name> | --baseline-version <model package ARN>) [limits] [options]

Scores the dataset on the endpoint (and on a baseline endpoint, on the same items) with the console's evaluation
code, compares it with the baseline by paired tests, and exits 0 (pass), 1 (regression), 2 (usage or input error)
or 3 (infrastructure failure). AWS access: the SDK's credential chain and AWS_ENDPOINT_URL_* (local mode's too).

Limits (how much worse a figure may get; a check fails only when it is also significant at --alpha):
  --max-accuracy-drop <share>            default 0      (McNemar exact test)
  --max-threshold-accuracy-drop <share>  default 0      (paired bootstrap)
  --max-coverage-drop <share>            default 0      (exact sign test)
  --max-ece-rise <number>                default 0      (paired bootstrap)
  --max-p95-latency-rise <ratio>         default 0.25   (paired bootstrap; 0.25 = 25 % slower)
  --max-refusal-rise <share>             default 0      (exact sign test)
Options:
  --threshold <0-1>         the confidence threshold (default: the baseline's for --target-accuracy)
  --target-accuracy <0-1>   default 0.9
  --alpha <0-1>             one-sided significance level, default 0.05
  --concurrency <1-16>      requests at a time per endpoint, default 1
  --bootstrap-resamples <n> default 2000
  --seed <n>                bootstrap seed, default 1
  --junit <file>            write JUnit XML
  --summary <file>          write a Markdown summary (e.g. "$GITHUB_STEP_SUMMARY")
`;

const share = z.coerce.number().min(0).max(1);

const optionsSchema = z
  .strictObject({
    dataset: z.string().min(1, "is required"),
    endpoint: z.string().min(1, "is required"),
    "baseline-endpoint": z.string().min(1).optional(),
    "baseline-version": z.string().min(1).optional(),
    "max-accuracy-drop": share.default(0),
    "max-threshold-accuracy-drop": share.default(0),
    "max-coverage-drop": share.default(0),
    "max-ece-rise": share.default(0),
    "max-p95-latency-rise": z.coerce.number().min(0).default(0.25),
    "max-refusal-rise": share.default(0),
    threshold: share.optional(),
    "target-accuracy": share.default(0.9),
    alpha: z.coerce.number().gt(0).lt(1).default(0.05),
    concurrency: z.coerce.number().int().min(1).max(16).default(1),
    "bootstrap-resamples": z.coerce.number().int().min(100).max(100_000).default(2000),
    seed: z.coerce.number().int().default(1),
    junit: z.string().min(1).optional(),
    summary: z.string().min(1).optional(),
  })
  .refine((options) => Boolean(options["baseline-endpoint"]) !== Boolean(options["baseline-version"]), {
    message: "give exactly one of --baseline-endpoint and --baseline-version",
  });

export type Baseline = { kind: "endpoint"; name: string } | { kind: "version"; arn: string };

export interface GateOptions {
  dataset: string;
  endpoint: string;
  baseline: Baseline;
  limits: GateLimits;
  threshold: number | null;
  targetAccuracy: number;
  alpha: number;
  concurrency: number;
  bootstrap: { resamples: number; seed: number };
  junit: string | null;
  summary: string | null;
}

const names = Object.keys(optionsSchema.shape);

/** The gate's flags, or a usage failure naming each bad one. `--help` is the caller's to handle. */
export function parseGateOptions(argv: readonly string[]): GateOptions {
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args: [...argv],
      options: Object.fromEntries(names.map((name) => [name, { type: "string" as const }])),
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new GateFailure("input", (error as Error).message);
  }
  const parsed = optionsSchema.safeParse({ dataset: "", endpoint: "", ...values });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) =>
      issue.path.length ? `--${issue.path.join(".")}: ${issue.message}` : issue.message,
    );
    throw new GateFailure("input", problems.join("; "));
  }
  const o = parsed.data;
  return {
    dataset: o.dataset,
    endpoint: o.endpoint,
    baseline: o["baseline-endpoint"]
      ? { kind: "endpoint", name: o["baseline-endpoint"] }
      : { kind: "version", arn: o["baseline-version"] as string },
    limits: {
      accuracy: o["max-accuracy-drop"],
      accuracyAtThreshold: o["max-threshold-accuracy-drop"],
      coverage: o["max-coverage-drop"],
      ece: o["max-ece-rise"],
      p95Latency: o["max-p95-latency-rise"],
      refusals: o["max-refusal-rise"],
    },
    threshold: o.threshold ?? null,
    targetAccuracy: o["target-accuracy"],
    alpha: o.alpha,
    concurrency: o.concurrency,
    bootstrap: { resamples: o["bootstrap-resamples"], seed: o.seed },
    junit: o.junit ?? null,
    summary: o.summary ?? null,
  };
}

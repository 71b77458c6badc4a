import type { Shape, StructureShape } from "@decision-console/local-aws/testing";

/**
 * Inputs an outside prober would send for one operation, from its shape in the service model: another team's
 * plausible names and ARNs, values of the wrong type, out of range, oversized, or made to climb out of a directory.
 * Deterministic for a seed, so a failing input can be sent again.
 */
export type Random = () => number;

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: Random, values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;

const OTHER_TEAM = "team-b-prod";
const ACCOUNT = "123456789012";

/** A value another team's resources would have, shaped to pass the model's constraints where it can. */
function plausible(shape: Shape, random: Random, name: string, depth: number): unknown {
  switch (shape.type) {
    case "string": {
      if (shape.enum?.length) return pick(random, shape.enum);
      if (shape.pattern?.startsWith("arn:") || /Arn$/.test(name)) {
        return pick(random, [
          `arn:aws:sagemaker:us-east-1:${ACCOUNT}:endpoint/${OTHER_TEAM}`,
          `arn:aws:sagemaker:us-east-1:${ACCOUNT}:model-package/${OTHER_TEAM}/1`,
          `arn:aws:iam::${ACCOUNT}:role/${OTHER_TEAM}-role`,
          `arn:aws:autoscaling:us-east-1:${ACCOUNT}:scalingPolicy:00000000-0000-0000-0000-000000000000:resource/sagemaker/endpoint/${OTHER_TEAM}/variant/AllTraffic:policyName/p`,
        ]);
      }
      if (/Url|Uri|S3/.test(name)) return `s3://decision-console-local/data-capture/${OTHER_TEAM}/x`;
      return `${OTHER_TEAM}${depth > 0 ? "-1" : ""}`;
    }
    case "integer":
    case "float":
      return Math.max(shape.min ?? 0, Math.min(shape.max ?? 10, 1));
    case "boolean":
      return random() < 0.5;
    case "timestamp":
      return new Date(Date.UTC(2026, 0, 1));
    case "blob":
      return new TextEncoder().encode(OTHER_TEAM);
    case "list":
      return depth > 3 ? [] : [plausible(shape.member, random, name, depth + 1)];
    case "map":
      return depth > 3
        ? {}
        : { [String(plausible(shape.key, random, name, depth + 1))]: plausible(shape.value, random, name, depth + 1) };
    case "structure":
      return depth > 3 ? {} : structure(shape, random, depth + 1, plausible);
  }
}

const HOSTILE_STRINGS = [
  "",
  "../../../../etc/passwd",
  "dc-../../local-aws/credentials",
  "A".repeat(70_000),
  "\u0000\u0001\u001f",
  "<|im_start|>system",
  "dc-\u202eevil",
  "%2e%2e%2f%2e%2e%2f",
  "arn:aws:sagemaker:us-east-1:123456789012:endpoint/dc-*",
  "dc-*",
  "s3://decision-console-local/../other",
  "😀".repeat(300),
];

/** A value the model refuses: the wrong type, out of its range, oversized or made to escape a path. */
function hostile(shape: Shape, random: Random, name: string, depth: number): unknown {
  const wrongType = pick(random, [null, 7, -1, 1e308, true, "x", [], {}, [[[]]], { a: { b: {} } }] as unknown[]);
  if (random() < 0.25) return wrongType;
  switch (shape.type) {
    case "string":
      return pick(random, HOSTILE_STRINGS);
    case "integer":
    case "float":
      return pick(random, [-1, 0, 2 ** 31, -(2 ** 53), 1e308, (shape.max ?? 0) + 1, (shape.min ?? 0) - 1]);
    case "list":
      return Array.from({ length: pick(random, [0, 1, 101, 1001]) }, () =>
        hostile(shape.member, random, name, depth + 1),
      );
    case "map":
      return Object.fromEntries(
        Array.from({ length: pick(random, [0, 1, 60]) }, (_, i) => [
          `${pick(random, HOSTILE_STRINGS).slice(0, 200)}${i}`,
          hostile(shape.value, random, name, depth + 1),
        ]),
      );
    case "structure":
      return depth > 4 ? {} : structure(shape, random, depth + 1, random() < 0.5 ? hostile : plausible);
    default:
      return wrongType;
  }
}

type Fill = (shape: Shape, random: Random, name: string, depth: number) => unknown;

function structure(shape: StructureShape, random: Random, depth: number, fill: Fill): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const required = new Set(shape.required ?? []);
  for (const [name, member] of Object.entries(shape.members)) {
    if (required.has(name) ? random() < 0.9 : random() < 0.35) input[name] = fill(member, random, name, depth);
  }
  return input;
}

/** `count` inputs for one operation: the first plausible (another team's resources), the rest hostile. */
export function probeInputs(shape: StructureShape, count: number, random: Random): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) =>
    i % 3 === 0 ? structure(shape, random, 0, plausible) : structure(shape, random, 0, hostile),
  );
}

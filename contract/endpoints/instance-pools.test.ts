import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { deployRequestSchema } from "./deploy.ts";
import { maxInstancePools } from "./instance-pools.ts";
import { endpointChangeSchema } from "./update.ts";

const root = path.resolve(import.meta.dirname, "../..");
/** The emulator keeps its own reading of AWS (local-aws), and tests restate rules to check them. */
const skipped = /(^|\/)(node_modules|\.next|server\/local)(\/|$)|\.test\.tsx?$/;

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !skipped.test(file));
}

/** A line that limits or dedupes instance pools: "1 to 5", "up to 5", max(5), >= 5, a Set of instance types. */
const poolRule = /\b(1 to 5|1-5|up to 5)\b|max\(5\b|[<>]=?\s*5\b|\b5 instance|new Set\(.*(pool|instanceType|types)/i;

describe("the instance pool rule", () => {
  it("is stated once, in contract/endpoints/instance-pools.ts", () => {
    const stating = ["contract", "components", "server", "app"].flatMap(sources).filter((file) =>
      readFileSync(path.join(root, file), "utf8")
        .split("\n")
        .some((line) => /pool|instance type|types/i.test(line) && poolRule.test(line)),
    );
    expect(stating).toEqual(["contract/endpoints/instance-pools.ts"]);
  });

  it("holds the same for a deployment's GPU pools and an update's instance pools", () => {
    const gpu = (types: string[]) =>
      deployRequestSchema.shape.compute.safeParse({
        kind: "gpu-pool",
        pools: types.map((instanceType) => ({ instanceType })),
      });
    const update = (types: string[]) => endpointChangeSchema.safeParse({ instancePools: types });
    const types = Array.from({ length: maxInstancePools + 1 }, (_, i) => `ml.g${i + 4}.xlarge`);
    for (const check of [gpu, update]) {
      expect(check(types.slice(0, maxInstancePools)).success).toBe(true);
      expect(check(types).error?.issues[0]?.message).toBe("SageMaker accepts at most 5 instance pools");
      expect(check([]).error?.issues[0]?.message).toBe("give at least one instance pool");
      expect(check(["ml.g5.xlarge", "ml.g5.xlarge"]).error?.issues[0]?.message).toBe("instance types must be unique");
    }
  });
});

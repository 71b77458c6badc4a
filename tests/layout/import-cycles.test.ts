import path from "node:path";
import { describe, expect, it } from "vitest";
import { importCycles, importGraph, importSpecifiers } from "./import-graph.ts";

const root = path.resolve(import.meta.dirname, "../..");

describe("the console's modules form no import circle", () => {
  it("has none in app/, components/, contract/, server/, scripts/ or local-aws/", () => {
    const graph = importGraph(root, ["app", "components", "contract", "server", "scripts", "local-aws"]);
    expect(graph.size).toBeGreaterThan(300);
    expect(importCycles(graph)).toEqual([]);
  });

  it("finds a circle, type-only imports included", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(importCycles(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
    expect(
      importSpecifiers(
        'import type { A } from "./a.ts";\nimport {\n  b,\n  type C,\n} from "@/server/b.ts";\nexport * from "./c.ts";\nconst d = await import("./d.ts");\n// import "./e.ts";\n',
      ),
    ).toEqual(["./a.ts", "@/server/b.ts", "./c.ts", "./d.ts"]);
  });
});

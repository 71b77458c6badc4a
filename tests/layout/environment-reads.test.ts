import path from "node:path";
import { describe, expect, it } from "vitest";
import { environmentReads, readsOutsideConfig } from "./environment-reads.ts";

const root = path.resolve(import.meta.dirname, "../..");

describe("the console reads its settings in server/config.ts only (issue 28)", () => {
  it("has no process.env read anywhere else in its code, its scripts or its benchmarks", () => {
    expect(readsOutsideConfig(root)).toEqual([]);
  });

  it("finds each way of reading a variable, and lets a child's environment and npm's INIT_CWD through", () => {
    const reads = environmentReads(
      [
        "const limit = Number(process.env.CONSOLE_INVOKE_PER_MINUTE);",
        'const mode = process["env"].CONSOLE_MODE;',
        "export function f(env = process.env) {}",
        "const { env } = process;",
        'import { env } from "node:process";',
        "const child = { ...process.env, ADAPTER_THREADS: '1' };",
        "const from = process.env.INIT_CWD ?? process.cwd();",
        "process.env.LOCAL_ADAPTER_THREADS = values.threads;",
        "// process.env.IN_A_COMMENT",
        " * process.env.IN_A_DOC_COMMENT",
        "if (process.env.X == null) {}",
      ].join("\n"),
    );
    expect(reads.map((read) => Number(read.split(":")[0]))).toEqual([1, 2, 3, 4, 5, 11]);
  });
});

import fs from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { executionRoleArnOf } from "../iam/stack-policies.ts";
import type { LocalStackFixture } from "../stack-fixture.ts";
import { LOCAL_ACCOUNT_ID } from "../wire/request.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The stack fixture of the checkout under test (vitest.config.ts provides it from infra/local-stack/). */
    localStackFixture: LocalStackFixture;
    /** A tiny GGUF the run generated once (tests/support/vitest-global-setup.ts). */
    tinyModel: string;
  }
}

/** The stack fixture the test run was given: tests start control planes with it, as `npm start` does. */
export function testStackFixture(): LocalStackFixture {
  const fixture = inject("localStackFixture");
  if (!fixture) throw new Error("This test run provides no localStackFixture (vitest.config.ts provides it).");
  return fixture;
}

/** Writes the run's tiny GGUF (a real llama-shaped model with random weights) to `out`. */
export function writeTinyModel(out: string): void {
  const tinyModel = inject("tinyModel");
  if (!tinyModel) throw new Error("This test run provides no tinyModel (vitest's global setup generates it).");
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.copyFileSync(tinyModel, out);
}

/** The fixture stack's execution role in the local account, the one role the console may pass to SageMaker. */
export function testExecutionRoleArn(): string {
  return executionRoleArnOf(testStackFixture().stack, LOCAL_ACCOUNT_ID);
}

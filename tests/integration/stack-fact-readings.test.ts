import { quantileOf } from "@decision-console/adapter/contract";
import {
  LLAMA_CPP_DLC,
  llamaCppDlcAccount,
  TRANSFORM_JOB_LOG_GROUP as localTransformLogGroup,
  percentile,
  testStackFixture,
} from "@decision-console/local-aws/testing";
import { describe, expect, it } from "vitest";
import { TRANSFORM_JOB_LOG_GROUP as consoleTransformLogGroup } from "../../contract/stack/console-contract.ts";
import {
  LLAMA_CPP_DLC_ACCOUNTS,
  LLAMA_CPP_DLC_REPOSITORY,
  LLAMA_CPP_DLC_TAGS,
} from "../../contract/stack/llama-cpp-dlc.ts";

/**
 * Facts of AWS that the console (and its stack) and local mode each state in code of their own: where SageMaker
 * pulls the llama.cpp DLC from, where transform jobs log, and what a percentile of latencies is (local CloudWatch's
 * pNN against the nearest rank the console and the adapter report). A disagreement means one of them misread AWS.
 */
describe("the console's and local mode's readings of AWS facts", () => {
  it("name the llama.cpp DLC's repository and SageMaker tags alike", () => {
    expect(LLAMA_CPP_DLC.repository).toBe(LLAMA_CPP_DLC_REPOSITORY);
    expect(LLAMA_CPP_DLC.tags).toEqual(LLAMA_CPP_DLC_TAGS);
  });

  it("place the DLC in the same account in every Region the stack maps", () => {
    for (const [region, account] of Object.entries(LLAMA_CPP_DLC_ACCOUNTS)) {
      expect(llamaCppDlcAccount(testStackFixture().stack, region), region).toBe(account);
    }
    expect(llamaCppDlcAccount(testStackFixture().stack, "xx-nowhere-1")).toBeUndefined();
  });

  it("send transform jobs' logs to the same group", () => {
    expect(localTransformLogGroup).toBe(consoleTransformLogGroup);
  });

  it("take the same percentiles of the same latencies", () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    for (const size of [1, 2, 3, 10, 99, 100, 101, 1000]) {
      const values = Array.from({ length: size }, () => Math.round(next() * 60_000));
      for (const nn of [0, 1, 50, 90, 95, 99, 99.9, 100]) {
        expect(percentile(values, nn), `p${nn} of ${size}`).toBe(quantileOf(values, nn / 100));
      }
    }
    expect(percentile([], 50)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { TRANSFORM_JOB_LOG_GROUP as consoleTransformLogGroup } from "../../contract/stack/console-contract.ts";
import {
  LLAMA_CPP_DLC_ACCOUNTS,
  LLAMA_CPP_DLC_REPOSITORY,
  LLAMA_CPP_DLC_TAGS,
} from "../../contract/stack/llama-cpp-dlc.ts";
import { LLAMA_CPP_DLC, llamaCppDlcAccount } from "../../server/local/llama-cpp-dlc-images.ts";
import { TRANSFORM_JOB_LOG_GROUP as localTransformLogGroup } from "../../server/local/transform/transform-runner.ts";

/**
 * Facts of AWS that the console (and its stack) and local mode each state in code of their own: where SageMaker
 * pulls the llama.cpp DLC from and where transform jobs log. A disagreement means one of them misread AWS.
 */
describe("the console's and local mode's readings of AWS facts", () => {
  it("name the llama.cpp DLC's repository and SageMaker tags alike", () => {
    expect(LLAMA_CPP_DLC.repository).toBe(LLAMA_CPP_DLC_REPOSITORY);
    expect(LLAMA_CPP_DLC.tags).toEqual(LLAMA_CPP_DLC_TAGS);
  });

  it("place the DLC in the same account in every Region the stack maps", () => {
    for (const [region, account] of Object.entries(LLAMA_CPP_DLC_ACCOUNTS)) {
      expect(llamaCppDlcAccount(region), region).toBe(account);
    }
    expect(llamaCppDlcAccount("xx-nowhere-1")).toBeUndefined();
  });

  it("send transform jobs' logs to the same group", () => {
    expect(localTransformLogGroup).toBe(consoleTransformLogGroup);
  });
});

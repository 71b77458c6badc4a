import type { SynthesisedPolicies } from "./iam/stack-fixture.ts";
import { SYNTHESISED_STACK } from "./iam/stack-policies.ts";
import { DEFAULT_REGION } from "./wire/request.ts";

/**
 * The AWS llama.cpp Deep Learning Container as local ECR serves it, from the DLC documentation: its images are in
 * the `llama-cpp` repository of the DLC account of each Region (the stack's `LlamaCppDlcAccounts` mapping, which
 * the fixture carries), and its SageMaker x86 images are tagged `server-sagemaker-cpu-v1` and
 * `server-sagemaker-cuda-v1`. Locally those images run the llama-server stand-in (`adapter/stand-ins/llama-server/`).
 */
export const LLAMA_CPP_DLC = {
  repository: "llama-cpp",
  tags: { cpu: "server-sagemaker-cpu-v1", cuda: "server-sagemaker-cuda-v1" },
} as const;

/** The DLC account of `region`, from the stack fixture's mapping; absent where the DLC is not offered. */
export function llamaCppDlcAccount(region: string = DEFAULT_REGION, stack: SynthesisedPolicies = SYNTHESISED_STACK) {
  return stack.mappings.LlamaCppDlcAccounts?.[region]?.account;
}

import type { SynthesisedPolicies } from "./stack-fixture.ts";

/**
 * The AWS llama.cpp Deep Learning Container as local ECR serves it, from the DLC documentation: its images are in
 * the `llama-cpp` repository of the DLC account of each Region (the stack's `LlamaCppDlcAccounts` mapping, which
 * the fixture carries), and its SageMaker x86 images are tagged `server-sagemaker-cpu-v1` and
 * `server-sagemaker-cuda-v1`. What those images run locally, the fixture says.
 */
export const LLAMA_CPP_DLC = {
  repository: "llama-cpp",
  tags: { cpu: "server-sagemaker-cpu-v1", cuda: "server-sagemaker-cuda-v1" },
} as const;

/** The DLC account of `region`, from the stack fixture's mapping; absent where the DLC is not offered. */
export function llamaCppDlcAccount(stack: SynthesisedPolicies, region: string) {
  return stack.mappings.LlamaCppDlcAccounts?.[region]?.account;
}

import { Aws, CfnMapping } from "aws-cdk-lib";
import type { Construct } from "constructs";
import { LLAMA_CPP_DLC_ACCOUNTS, LLAMA_CPP_DLC_REPOSITORY } from "../../contract/stack/llama-cpp-dlc.ts";

/**
 * The ARN of the llama.cpp DLC's repository in the stack's Region: the DLC account differs by Region, so the stack
 * carries the account table as a mapping (a deploy to a Region the table lacks fails on the lookup, as it should:
 * the DLC publishes no llama.cpp image there).
 */
export function llamaCppDlcRepositoryArn(scope: Construct): string {
  const accounts = new CfnMapping(scope, "LlamaCppDlcAccounts", {
    mapping: Object.fromEntries(
      Object.entries(LLAMA_CPP_DLC_ACCOUNTS).map(([region, account]) => [region, { account }]),
    ),
  });
  const account = accounts.findInMap(Aws.REGION, "account");
  return `arn:${Aws.PARTITION}:ecr:${Aws.REGION}:${account}:repository/${LLAMA_CPP_DLC_REPOSITORY}`;
}

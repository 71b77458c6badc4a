import { ListTagsCommand, type SageMakerClient, type Tag } from "@aws-sdk/client-sagemaker";
import { CONSOLE_MODEL_TAG_KEYS } from "../../contract/stack/console-contract.ts";
import { awsCall } from "../aws/errors.ts";

/**
 * What the console records about a model it creates. They are tags on the model: SageMaker passes every variable of
 * a container's Environment to the container, which should get only what its image documents (issue 32 item 11).
 */
export interface ModelRecords {
  modelSha256?: string;
  sourceBuildId?: string;
  previousConfig?: string;
}

type RecordName = keyof ModelRecords;
const recordNames = Object.keys(CONSOLE_MODEL_TAG_KEYS) as RecordName[];

/** Where consoles before the tags kept the same records: in the container's Environment. Read, never written. */
const earlierVariables: Record<RecordName, string> = {
  modelSha256: "DECISION_CONSOLE_MODEL_SHA256",
  sourceBuildId: "DECISION_CONSOLE_SOURCE_BUILD",
  previousConfig: "DECISION_CONSOLE_PREVIOUS_CONFIG",
};

/** Every variable of the DECISION_CONSOLE_ family an earlier console put into a container's Environment. */
export const isEarlierConsoleVariable = (name: string) => name.startsWith("DECISION_CONSOLE_");

/** CreateModel's Tags for the records; undefined when there are none (no tagging permission is asked for then). */
export function recordTags(records: ModelRecords): Tag[] | undefined {
  const tags = recordNames.flatMap((name) => {
    const value = records[name];
    return value ? [{ Key: CONSOLE_MODEL_TAG_KEYS[name], Value: value }] : [];
  });
  return tags.length > 0 ? tags : undefined;
}

/** The records of a model from its tags, else from the variables an earlier console left in its environment. */
export function recordsOf(tags: Record<string, string>, environment: Record<string, string>): ModelRecords {
  const records: ModelRecords = {};
  for (const name of recordNames) {
    const value = tags[CONSOLE_MODEL_TAG_KEYS[name]] || environment[earlierVariables[name]];
    if (value) records[name] = value;
  }
  return records;
}

/** Pages of ListTags read; a SageMaker resource has at most 50 user tags, a page holds 50. */
const TAG_PAGES = 4;

/** The tags of a model (ListTags; DescribeModel does not return them), as a map. */
export async function modelTags(sageMaker: SageMakerClient, modelArn: string): Promise<Record<string, string>> {
  const tags: Record<string, string> = {};
  let nextToken: string | undefined;
  for (let page = 0; page < TAG_PAGES; page++) {
    const listed = await awsCall(`tags of model "${modelArn}"`, () =>
      sageMaker.send(new ListTagsCommand({ ResourceArn: modelArn, MaxResults: 50, NextToken: nextToken })),
    );
    for (const tag of listed?.Tags ?? []) if (tag.Key) tags[tag.Key] = tag.Value ?? "";
    nextToken = listed?.NextToken;
    if (!nextToken) break;
  }
  return tags;
}

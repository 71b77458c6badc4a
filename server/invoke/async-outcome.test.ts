import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { mockClient } from "aws-sdk-client-mock";
import { afterEach, expect, test } from "vitest";
import { asyncOutcomeSchema } from "../../contract/invoke/invoke-async.ts";
import { asyncOutcome } from "./async-outcome.ts";

const s3 = mockClient(S3Client);
afterEach(() => s3.reset());

const output = "s3://bucket/async/ep/out/1.out";
const failure = "s3://bucket/async/ep/failed/1-error.out";
/** What the console recorded when it sent the request: more than the outcome's contract holds. */
const sent = {
  inferenceId: "1",
  endpointName: "ep",
  inputLocation: "s3://bucket/async/ep/in/1.json",
  outputLocation: output,
  failureLocation: failure,
  sentBy: { kind: "playground", user: null },
  submittedAt: "2026-12-02T10:00:00.000Z",
  state: "queued",
  checkedAt: null,
};

function written(key: string, body: string) {
  s3.on(ListObjectsV2Command, { Prefix: key }).resolves({ Contents: [{ Key: key }] });
  s3.on(GetObjectCommand, { Key: key }).resolves({
    Body: { transformToByteArray: async () => new Uint8Array(Buffer.from(body)) } as never,
    ContentType: "application/json",
  });
}

test("a completed outcome holds the answer and the two locations, nothing else of the request's record", async () => {
  s3.on(ListObjectsV2Command).resolves({ Contents: [] });
  written("async/ep/out/1.out", '{"result":{"id":"q"}}');
  const outcome = await asyncOutcome(s3 as unknown as S3Client, sent);
  expect(outcome).toEqual({
    status: "completed",
    body: { result: { id: "q" } },
    outputLocation: output,
    failureLocation: failure,
  });
  expect(asyncOutcomeSchema.strict().safeParse(outcome).success).toBe(true);
});

test("a pending outcome, with neither object written, is strict to the contract as well", async () => {
  s3.on(ListObjectsV2Command).resolves({ Contents: [] });
  const outcome = await asyncOutcome(s3 as unknown as S3Client, sent);
  expect(outcome.status).toBe("pending");
  expect(asyncOutcomeSchema.strict().safeParse(outcome).success).toBe(true);
});

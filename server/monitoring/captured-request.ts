import { GetObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { type Decision, decisionSchema } from "@decision-console/adapter/contract";
import { awsCall } from "../aws/errors.ts";
import { AppError } from "../http/app-error.ts";

/**
 * The decision a captured request sent (its state, question and options with their descriptions), read back from
 * the capture object: the store keeps only a decision's key (object, line, item) and its scores.
 */
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function inputOf(recordText: string): unknown {
  try {
    const record = JSON.parse(recordText);
    const captured = isObject(record) && isObject(record.captureData) ? record.captureData.endpointInput : undefined;
    if (!isObject(captured) || typeof captured.data !== "string") return undefined;
    const text = captured.encoding === "BASE64" ? Buffer.from(captured.data, "base64").toString("utf8") : captured.data;
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The request's decision at `item` in one capture record, or null when the record holds none there. */
export function decisionInRecord(recordText: string, item: number): Decision | null {
  const input = inputOf(recordText);
  if (!isObject(input)) return null;
  const raw = isObject(input.decision)
    ? item === 0
      ? input.decision
      : undefined
    : Array.isArray(input.decisions)
      ? input.decisions[item]
      : undefined;
  const parsed = decisionSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** Reads capture objects once each per use: `decision(key, line, item)` reads its object on first ask. */
export function capturedRequests(s3: S3Client, bucket: string) {
  const texts = new Map<string, Promise<string[]>>();
  const linesOf = (key: string) => {
    let lines = texts.get(key);
    if (!lines) {
      lines = awsCall(`the capture object s3://${bucket}/${key}`, () =>
        s3.send(new GetObjectCommand({ Bucket: bucket, Key: key })),
      ).then(async (object) => ((await object.Body?.transformToString("utf8")) ?? "").split("\n"));
      texts.set(key, lines);
    }
    return lines;
  };
  return {
    async decision(key: string, line: number, item: number): Promise<Decision> {
      const lines = await linesOf(key);
      const decision = decisionInRecord(lines[line] ?? "", item);
      if (!decision) {
        throw new AppError("not_found", `The capture object ${key} holds no decision at line ${line}, item ${item}.`);
      }
      return decision;
    },
  };
}

/**
 * What a transform job has done while it runs, from what the console can read on AWS as in local mode:
 * DescribeTransformJob reports no per-record progress and SageMaker writes an input's `.out` only once all its
 * records are answered, but each container logs every answered request to CloudWatch (the adapter's request log
 * line: `"path":"/invocations"`, `"status"`, and `"records"` for a JSON Lines body), in the job's
 * `<job>/<instance-id>` streams.
 */

/** Records the containers answered: the `records` of every POST /invocations they answered 200 (1 when absent). */
export function recordsAnswered(messages: Iterable<string>): number {
  let answered = 0;
  for (const message of messages) {
    if (!message.includes('"/invocations"')) continue;
    let line: unknown;
    try {
      line = JSON.parse(message);
    } catch {
      continue;
    }
    if (!line || typeof line !== "object") continue;
    const { method, path, status, records } = line as Record<string, unknown>;
    if (method !== "POST" || path !== "/invocations" || status !== 200) continue;
    answered += typeof records === "number" && Number.isInteger(records) && records > 0 ? records : 1;
  }
  return answered;
}

export interface PreviewRecord {
  /** The record's line in its input object (outputs are assembled by line, in input order). */
  line: number;
  input: string;
  output: string;
}

const SHOWN_CHARS = 240;

const shorten = (text: string) => (text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS - 1)}…` : text);

/**
 * The first records of an output object (JoinSource Input: each line is its input with `SageMakerOutput`, or
 * `{SageMakerInput, SageMakerOutput}`), each with its input line; only complete lines of `text` are read.
 */
export function outputPreview(text: string, limit: number): PreviewRecord[] {
  const lines = text.split("\n");
  if (!text.endsWith("\n")) lines.pop();
  const records: PreviewRecord[] = [];
  for (const [index, raw] of lines.entries()) {
    if (records.length >= limit) break;
    if (raw.trim() === "") continue;
    let input: unknown = raw;
    let output: unknown = "";
    try {
      const parsed = JSON.parse(raw) as Record<string, unknown>;
      if (parsed && typeof parsed === "object" && "SageMakerOutput" in parsed) {
        const { SageMakerOutput, SageMakerInput, ...rest } = parsed;
        output = SageMakerOutput;
        input = SageMakerInput ?? rest;
      }
    } catch {
      // Not JSON: shown as written.
    }
    const text = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));
    records.push({ line: index + 1, input: shorten(text(input)), output: shorten(text(output)) });
  }
  return records;
}

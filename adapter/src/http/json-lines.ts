import { SCORING_FAILED_ERROR } from "../contract/common.ts";
import type { RecordErrorLine } from "../contract/record-errors.ts";
import type { Engine } from "../engine/engine.ts";
import { RequestError } from "../engine/request-error.ts";
import type { RouteTable } from "./dispatch.ts";
import type { Exchange } from "./exchange.ts";

/** The JSON Lines media type SageMaker Batch Transform sends and accepts (`ContentType`, `Accept`). */
export const JSON_LINES_TYPE = "application/jsonlines";

/**
 * A JSON Lines body at /invocations, as Batch Transform sends a MultiRecord mini-batch (records joined by `\n`):
 * each record is a request body of its own, routed by its shape and answered as if it had come alone, one after
 * another on this request's admission slot (records on one state reuse its prefix, as consecutive requests do).
 * The answer is one JSON line per record, in order. When a record is refused or fails, nothing is answered for
 * the others: the request gets that record's status and `{"error": "line N: <message>"}`, so the job's failure
 * names the record. With `ADAPTER_RECORD_ERRORS=inline` the refused record is answered by its error line
 * (`{"status", "error"}`) instead, and the others as usual.
 */
export async function runJsonLines(
  exchange: Exchange,
  table: RouteTable,
  records: readonly unknown[],
  engine: Engine,
): Promise<void> {
  exchange.line.records = records.length;
  const inline = engine.config.recordErrors === "inline";
  const answers: string[] = [];
  const refused: number[] = [];
  for (const [index, record] of records.entries()) {
    const where = `line ${index + 1}`;
    let status: number;
    let body: unknown;
    try {
      const route = table.forInvocation(record);
      const log: Record<string, unknown> = {};
      const result = await route.handle(record, { engine, requestId: `${exchange.requestId}/${index + 1}`, log });
      if (!("body" in result)) throw new RequestError("streaming answers cannot be sent as JSON Lines");
      ({ status, body } = result);
    } catch (error) {
      if (error instanceof RequestError) {
        ({ status, body } = { status: error.status, body: { error: error.message } });
      } else {
        const cause = error instanceof Error ? (error.stack ?? error.message) : String(error);
        exchange.line.error = `${where}: ${cause}`;
        ({ status, body } = { status: 500, body: SCORING_FAILED_ERROR });
      }
    }
    if (status === 200) {
      answers.push(JSON.stringify(body));
      continue;
    }
    const message = String((body as { error?: unknown }).error ?? "refused");
    if (!inline) return exchange.respond(status, { error: `${where}: ${message}` }, "jsonlines");
    const line: RecordErrorLine = { ...(body as object), error: message, status };
    answers.push(JSON.stringify(line));
    refused.push(index + 1);
  }
  if (refused.length > 0) exchange.line.refused_lines = refused;
  exchange.sendText(200, `${answers.join("\n")}\n`, JSON_LINES_TYPE, "jsonlines");
}

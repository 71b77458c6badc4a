import { JsonTooDeepError, parseJsonWithinDepth } from "@decision-console/adapter/contract";
import { CsvSyntaxError, parseCsv } from "./csv.ts";
import { type LabelledDecision, parseLabelledRow } from "./labelled-decision.ts";

export type DatasetFormat = "jsonl" | "csv";

export interface RowError {
  line: number;
  message: string;
}

export type DatasetParse =
  | { ok: true; format: DatasetFormat; items: LabelledDecision[] }
  | { ok: false; format: DatasetFormat; errors: RowError[] };

/** The format from a file name, or from the text: JSON Lines start with `{`. */
export function detectFormat(text: string, fileName?: string): DatasetFormat {
  const lower = fileName?.toLowerCase() ?? "";
  if (lower.endsWith(".csv")) return "csv";
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson") || lower.endsWith(".json")) return "jsonl";
  return text.trimStart().startsWith("{") ? "jsonl" : "csv";
}

const REQUIRED_CSV_COLUMNS = ["id", "state", "question", "options", "answer"] as const;

/**
 * A CSV `options` cell: a JSON array of `{id, description}`, or `|`-separated entries `id` or `id: description`.
 */
function csvOptions(cell: string): unknown {
  const trimmed = cell.trim();
  if (trimmed.startsWith("[")) {
    try {
      return parseJsonWithinDepth(trimmed);
    } catch (error) {
      return error instanceof JsonTooDeepError ? `not readable: ${error.message}` : "not valid JSON";
    }
  }
  return trimmed.split("|").map((entry) => {
    const separator = entry.indexOf(":");
    return separator < 0
      ? { id: entry.trim(), description: "" }
      : { id: entry.slice(0, separator).trim(), description: entry.slice(separator + 1).trim() };
  });
}

function* jsonLines(text: string): Generator<{ line: number; row: unknown } | RowError> {
  const lines = text.split(/\r?\n/);
  for (const [index, content] of lines.entries()) {
    if (content.trim() === "") continue;
    try {
      yield { line: index + 1, row: parseJsonWithinDepth(content) };
    } catch (error) {
      const reason = error instanceof JsonTooDeepError ? error.message : `not valid JSON (${(error as Error).message})`;
      yield { line: index + 1, message: reason };
    }
  }
}

function* csvRows(text: string): Generator<{ line: number; row: unknown } | RowError> {
  let records: ReturnType<typeof parseCsv>;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) {
      yield { line: error.line, message: error.message };
      return;
    }
    throw error;
  }
  const [header, ...rows] = records;
  if (!header) return;
  const columns = header.fields.map((name) => name.trim().toLowerCase());
  const missing = REQUIRED_CSV_COLUMNS.filter((name) => !columns.includes(name));
  if (missing.length > 0) {
    yield { line: header.line, message: `the header lacks the column(s) ${missing.join(", ")}` };
    return;
  }
  for (const record of rows) {
    if (record.fields.length !== columns.length) {
      yield { line: record.line, message: `has ${record.fields.length} fields; the header has ${columns.length}` };
      continue;
    }
    const row: Record<string, unknown> = {};
    columns.forEach((name, i) => {
      const value = record.fields[i] as string;
      if (name === "options") row.options = csvOptions(value);
      else if (value !== "") row[name] = value;
    });
    yield { line: record.line, row };
  }
}

const MAX_REPORTED_ERRORS = 20;

/**
 * Parses and validates a labelled decision set row by row. Every problem names its line; the caller stores
 * nothing unless the whole file is valid.
 */
export function parseDataset(text: string, format: DatasetFormat): DatasetParse {
  const errors: RowError[] = [];
  const items: LabelledDecision[] = [];
  const seen = new Map<string, number>();
  const rows = format === "csv" ? csvRows(text) : jsonLines(text);
  for (const entry of rows) {
    if ("message" in entry) {
      errors.push(entry);
      continue;
    }
    const parsed = parseLabelledRow(entry.row, `line-${entry.line}`);
    if (!parsed.ok) {
      errors.push({ line: entry.line, message: parsed.message });
      continue;
    }
    for (const item of parsed.items) {
      const earlier = seen.get(item.decision.id);
      if (earlier !== undefined) {
        errors.push({ line: entry.line, message: `id "${item.decision.id}" repeats the id on line ${earlier}` });
        continue;
      }
      seen.set(item.decision.id, entry.line);
      items.push(item);
    }
  }
  if (errors.length === 0 && items.length === 0) {
    errors.push({ line: 1, message: "the file holds no labelled decisions" });
  }
  if (errors.length > 0) return { ok: false, format, errors: errors.slice(0, MAX_REPORTED_ERRORS) };
  return { ok: true, format, items };
}

export function describeRowErrors(errors: readonly RowError[]): string {
  return errors.map((error) => `line ${error.line}: ${error.message}`).join("; ");
}

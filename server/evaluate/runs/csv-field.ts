/** A spreadsheet reads a cell starting with one of these as a formula (OWASP's CSV injection list). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** The same characters right after a separator: a reader that splits the cell there starts a cell with them. */
const FORMULA_AFTER_SEPARATOR = /([,;])([=+\-@\t\r])/g;
/**
 * Spreadsheets split on `,` or, in locales whose decimal mark is a comma, on `;`: a cell holding either is quoted,
 * as is one holding a quote or a line break.
 */
const NEEDS_QUOTES = /[",;\r\n]/;

const escapedAfterSeparators = (text: string) => text.replace(FORMULA_AFTER_SEPARATOR, "$1'$2");

/**
 * One field of the CSV the console writes. Text from datasets and endpoints that a spreadsheet would run as a
 * formula gets a `'` before it (shown as text, the value otherwise intact), at the start and after a `,` or `;`
 * inside it; lists are JSON arrays (their text items escaped after separators); numbers and booleans are ours and
 * written as they are.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text =
    typeof value === "string"
      ? escapedAfterSeparators(value.replace(FORMULA_START, "'$&"))
      : Array.isArray(value)
        ? JSON.stringify(value.map((entry) => (typeof entry === "string" ? escapedAfterSeparators(entry) : entry)))
        : String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows of fields as CSV (RFC 4180: comma separated, CRLF line ends). */
export function csvText(rows: readonly (readonly unknown[])[]): string {
  return `${rows.map((row) => row.map(csvField).join(",")).join("\r\n")}\r\n`;
}

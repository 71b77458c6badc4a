import fs from "node:fs";

/**
 * Figures in the docs come from the command that measured them: the command rewrites the block between
 * `<!-- <id>:begin -->` and `<!-- <id>:end -->` in the document, so a rerun replaces the old figures instead of
 * someone copying numbers by hand. A document without the markers is an error, not a silent no-op.
 */
export function replaceGeneratedSection(document: string, id: string, content: string): string {
  const begin = `<!-- ${id}:begin -->`;
  const end = `<!-- ${id}:end -->`;
  const from = document.indexOf(begin);
  const to = document.indexOf(end);
  if (from < 0 || to < from) throw new Error(`the document has no ${begin} ... ${end} block`);
  return `${document.slice(0, from + begin.length)}\n${content.trim()}\n${document.slice(to)}`;
}

export function writeGeneratedSection(file: string, id: string, content: string): void {
  fs.writeFileSync(file, replaceGeneratedSection(fs.readFileSync(file, "utf8"), id, content));
}

/** The line that dates a generated block and says where it was measured. */
export function measuredOn(date: Date, machine: string, command: string): string {
  return `Measured ${date.toISOString().slice(0, 10)} by \`${command}\` on ${machine}.`;
}

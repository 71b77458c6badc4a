import fs from "node:fs";
import path from "node:path";

/** Where an operator reads commands: every guide of the repository. */
export function documentFiles(repoRoot: string): string[] {
  const fixed = ["README.md", "SECURITY.md", "adapter/README.md", "infra/README.md", "server/evaluate/README.md"];
  const globbed = (dir: string, depth: number): string[] => {
    const absolute = path.join(repoRoot, dir);
    if (!fs.existsSync(absolute)) return [];
    return fs.readdirSync(absolute, { withFileTypes: true }).flatMap((entry) => {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) return depth > 0 ? globbed(relative, depth - 1) : [];
      return entry.name.endsWith(".md") ? [relative] : [];
    });
  };
  return [...fixed, ...globbed("docs", 0), ...globbed("bench", 1)].filter((file) =>
    fs.existsSync(path.join(repoRoot, file)),
  );
}

export interface DocumentedCommand {
  file: string;
  line: number;
  /** The command as a person would type it, without leading variable assignments and trailing comments. */
  command: string;
  /** The command as written, to run it (blocks keep their variables, heredocs and continuations). */
  source: string;
}

const SHELL_FENCES = new Set(["bash", "sh", "shell", "console", ""]);
const COMMAND_START = /^(npm|npx|node|curl|docker|aws|export|cd|until|[A-Z_][A-Z0-9_]*=)/;
const INLINE = /`((?:npm|npx|node|curl|docker|aws) [^`]+)`/g;
/** Where the word starting at `from` ends: quotes and `$( ... )` nest, whitespace outside them ends it. */
function wordEnd(text: string, from: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let index = from; index < text.length; index++) {
    const char = text[index];
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === "(" && text[index - 1] === "$") depth++;
    else if (char === ")" && depth > 0) depth--;
    else if (/\s/.test(char ?? "") && depth === 0) return index;
  }
  return text.length;
}

/** Whether a shell line is still open: an unclosed quote or `$(`, or a trailing backslash. */
function isOpen(text: string): boolean {
  if (text.endsWith("\\")) return true;
  return wordEnd(`${text} x`, 0) > text.length + 1 || unclosedQuote(text);
}

function unclosedQuote(text: string): boolean {
  let quote: string | undefined;
  for (const char of text) {
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
  }
  return quote !== undefined;
}

/** `A=1 B=2 npm start  # note` -> `npm start`; a bare assignment stays as it is. */
export function commandWithoutAssignments(line: string): string {
  const withoutComment = line.replace(/\s+#\s.*$/, "").trim();
  let rest = withoutComment.replace(/^export\s+/, "");
  while (/^[A-Z_][A-Z0-9_]*=/.test(rest)) rest = rest.slice(wordEnd(rest, 0)).trim();
  return rest || withoutComment;
}

/** Logical lines of a shell block: continuations joined, heredoc bodies skipped, comments and blanks dropped. */
function shellLines(block: string, firstLine: number): { line: number; text: string }[] {
  const lines = block.split("\n");
  const out: { line: number; text: string }[] = [];
  for (let index = 0; index < lines.length; index++) {
    const start = index;
    let text = (lines[index] ?? "").trim();
    while (isOpen(text) && index + 1 < lines.length) {
      const next = (lines[++index] ?? "").trim();
      text = text.endsWith("\\") ? `${text.slice(0, -1).trimEnd()} ${next}` : `${text}\n${next}`;
    }
    const heredoc = /<<-?\s*'?([A-Z]+)'?/.exec(text);
    if (heredoc) while (index + 1 < lines.length && (lines[++index] ?? "").trim() !== heredoc[1]);
    if (!text || text.startsWith("#") || text === ")") continue;
    out.push({ line: firstLine + start, text: text.replace(/^\$ /, "") });
  }
  return out;
}

/** Every shell command the guides show, in fenced shell blocks and as inline code. */
export function documentedCommands(repoRoot: string): DocumentedCommand[] {
  const found: DocumentedCommand[] = [];
  for (const file of documentFiles(repoRoot)) {
    const text = fs.readFileSync(path.join(repoRoot, file), "utf8");
    const lineOf = (offset: number) => text.slice(0, offset).split("\n").length;
    const fences = /^([ \t]*)```([a-z]*)\n([\s\S]*?)^\1```/gm;
    const fenced: [number, number][] = [];
    for (const match of text.matchAll(fences)) {
      fenced.push([match.index, match.index + match[0].length]);
      const [, , language = "", body = ""] = match;
      if (!SHELL_FENCES.has(language)) continue;
      const lines = shellLines(body, lineOf(match.index) + 1);
      if (language === "" && !lines.every((entry) => COMMAND_START.test(entry.text))) continue;
      for (const entry of lines) {
        found.push({ file, line: entry.line, command: commandWithoutAssignments(entry.text), source: entry.text });
      }
    }
    for (const match of text.matchAll(INLINE)) {
      if (fenced.some(([from, to]) => match.index >= from && match.index < to)) continue;
      const source = (match[1] ?? "").replace(/\s+/g, " ");
      found.push({ file, line: lineOf(match.index), command: commandWithoutAssignments(source), source });
    }
  }
  return found;
}

/** The fenced shell blocks of one document section (from its heading to the next heading of the same level). */
export function sectionShellBlocks(repoRoot: string, file: string, heading: string): string[] {
  const text = fs.readFileSync(path.join(repoRoot, file), "utf8");
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file} has no section "${heading}"`);
  const level = heading.split(" ")[0];
  const next = text.indexOf(`\n${level} `, start + heading.length + 2);
  const section = text.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/^([ \t]*)```(?:bash|sh|shell)\n([\s\S]*?)^\1```/gm)].map((match) => match[2] ?? "");
}

/**
 * Writes docs/settings.md's table of settings from `server/config.ts`, the one place they are defined;
 * `tests/docs/settings-doc.test.ts` fails when the two differ.
 */
import path from "node:path";
import { replaceGeneratedSection, writeGeneratedSection } from "../bench/docs/generated-section.ts";
import { type SettingDoc, settingDocs, settingNames } from "../server/config.ts";

const groups: SettingDoc["group"][] = ["Mode and AWS", "Sign-in", "Requests", "Process"];
export const settingsDocument = path.resolve(import.meta.dirname, "../docs/settings.md");

const cell = (text: string) => text.replaceAll("|", "\\|");

/** One table per group: each setting's name, default and meaning, in the schema's order. */
export function settingsTables(): string {
  return groups
    .map((group) => {
      const rows = settingNames
        .filter((name) => settingDocs[name].group === group)
        .map((name) => {
          const doc = settingDocs[name];
          const fallback = doc.default === undefined ? "unset" : `\`${doc.default}\``;
          return `| \`${name}\` | ${cell(fallback)} | ${cell(doc.description)}${doc.secret ? " Secret: never echoed." : ""} |`;
        });
      return [`### ${group}`, "", "| Variable | Default | What it does |", "| --- | --- | --- |", ...rows].join("\n");
    })
    .join("\n\n");
}

export function withCurrentTables(document: string): string {
  return replaceGeneratedSection(document, "settings", settingsTables());
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  writeGeneratedSection(settingsDocument, "settings", settingsTables());
  console.log(`Wrote ${path.relative(process.cwd(), settingsDocument)}`);
}

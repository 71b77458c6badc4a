import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { privateFile } from "../store/private-files.ts";

/**
 * What limits this console's first run, in plain words with the fix (no sandbox for builds, no trained model, a
 * first-run model that could not be packaged): `npm start` writes it into the data directory, and the console's
 * first page shows it. A console started otherwise has none.
 */
const FILE = "first-run-limits.json";

const limitsSchema = z.array(z.string().min(1)).max(20);

export function writeFirstRunLimits(dataDir: string, limits: readonly string[]): void {
  const file = path.join(dataDir, FILE);
  if (limits.length === 0) {
    fs.rmSync(file, { force: true });
    return;
  }
  privateFile(file);
  fs.writeFileSync(file, `${JSON.stringify(limitsSchema.parse(limits), null, 2)}\n`);
}

/** The limits `npm start` recorded in `dataDir`; none when it recorded none, or wrote something unreadable. */
export function readFirstRunLimits(dataDir: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dataDir, FILE), "utf8");
  } catch {
    return [];
  }
  try {
    const parsed = limitsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

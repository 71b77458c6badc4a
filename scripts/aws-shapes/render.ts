import { spawnSync } from "node:child_process";
import path from "node:path";
import { type Botocore, readServiceModel } from "./botocore-models.ts";
import { generateInputShapes } from "./generate.ts";
import type { ServedService } from "./served-operations.ts";

/** Where the generated shapes live, beside the validator that reads them. */
export const GENERATED_DIR = "local-aws/src/wire/generated";

/** One service's generated file, formatted as the repository's Biome formats it (so a fresh run equals the file). */
export function renderService(root: string, botocore: Botocore, served: ServedService): string {
  const model = readServiceModel(botocore, served.service, served.apiVersion);
  const source = generateInputShapes(model, {
    operations: served.operations,
    exportName: served.exportName,
    source: `botocore ${botocore.version}, ${served.service} ${served.apiVersion}`,
  });
  const file = path.join(GENERATED_DIR, served.file);
  const formatted = spawnSync(path.join(root, "node_modules/.bin/biome"), ["format", `--stdin-file-path=${file}`], {
    cwd: root,
    input: source,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (formatted.status !== 0) throw new Error(`biome format ${file}: ${formatted.stderr}`);
  return formatted.stdout;
}

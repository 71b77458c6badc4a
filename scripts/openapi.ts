import fs from "node:fs";
import path from "node:path";
import { openApiDocument } from "../server/openapi/document.ts";

/**
 * `npm run gen:openapi`: writes docs/openapi.json, the document `GET /api/openapi.json` serves, from the route table
 * (contract/api.ts), then Biome formats it; `--check` only says whether the file holds the same document
 * (tests/docs/openapi.test.ts does too).
 */
export const openApiFile = path.resolve(import.meta.dirname, "../docs/openapi.json");

export function renderOpenApi(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}

/** Whether docs/openapi.json holds the document the route table makes now (Biome's layout aside). */
export function isCurrent(): boolean {
  if (!fs.existsSync(openApiFile)) return false;
  return JSON.stringify(JSON.parse(fs.readFileSync(openApiFile, "utf8"))) === JSON.stringify(openApiDocument());
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const text = renderOpenApi();
  const relative = path.relative(process.cwd(), openApiFile);
  if (process.argv.includes("--check")) {
    if (!isCurrent()) {
      console.error(`${relative} is stale: run npm run gen:openapi`);
      process.exit(1);
    }
  } else {
    fs.writeFileSync(openApiFile, text);
    console.log(`wrote ${relative}`);
  }
}

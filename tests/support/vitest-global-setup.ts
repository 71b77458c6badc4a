import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { generateTinyModel } from "../../scripts/local-seed/tiny-model.ts";

/**
 * Once per run: the adapter's generated tiny GGUF, which local-aws/'s test hooks hand to models they create
 * (`inject("tinyModel")`; the emulator itself knows no adapter to make one with).
 */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-tiny-model-"));
  const tinyModel = path.join(dir, "tiny.gguf");
  await generateTinyModel(tinyModel);
  project.provide("tinyModel", tinyModel);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

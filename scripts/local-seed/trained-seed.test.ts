import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TRAINED_SEED_NAME, trainedSeedSource } from "./trained-seed.ts";

const dirs: string[] = [];
function fileWith(bytes: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "trained-seed-"));
  dirs.push(dir);
  const file = path.join(dir, "model.gguf");
  fs.writeFileSync(file, bytes);
  return file;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("trainedSeedSource", () => {
  const bytes = Buffer.from("GGUF and then some weights");
  const sha256 = createHash("sha256").update(bytes).digest("hex");

  it("offers the cached trained model when its size and sha256 are the pinned ones", async () => {
    const file = fileWith(bytes);
    const source = await trainedSeedSource({ path: file, sha256, bytes: bytes.length });
    expect(source).toEqual({ name: TRAINED_SEED_NAME, path: file, sha256, skipReason: null });
    expect(TRAINED_SEED_NAME).toBe("SmolLM2-135M-Instruct");
  });

  it("skips, saying why, when the cache has no file", async () => {
    const source = await trainedSeedSource({ path: "/nonexistent/model.gguf", sha256, bytes: bytes.length });
    expect(source).toMatchObject({ path: null });
    expect(source.skipReason).toMatch(/not found at \/nonexistent\/model\.gguf.*models:fetch/);
  });

  it("skips a cached file of the pinned size whose sha256 differs, naming both digests", async () => {
    const other = Buffer.from(bytes);
    other[0] = 0x00;
    const source = await trainedSeedSource({ path: fileWith(other), sha256, bytes: other.length });
    expect(source.path).toBeNull();
    expect(source.skipReason).toContain(`not the pinned ${sha256}`);
    expect(source.skipReason).toContain(createHash("sha256").update(other).digest("hex"));
  });

  it("skips a cached file of another size without reading it", async () => {
    const source = await trainedSeedSource({ path: fileWith(bytes), sha256, bytes: bytes.length + 1 });
    expect(source.path).toBeNull();
    expect(source.skipReason).toContain(`${bytes.length} bytes, not the pinned ${bytes.length + 1}`);
  });
});

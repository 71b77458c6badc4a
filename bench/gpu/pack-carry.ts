import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Prepares what the GPU machine lacks (it has no Node.js, no npm and no network) as xz-compressed parts small
 * enough to carry one per `run` call (64 MiB per call, the working tree included): this machine's Node.js binary
 * and the runtime closure of node-llama-cpp (with only its CUDA 13 prebuilt), zod and tsx.
 *
 *   npx tsx bench/gpu/pack-carry.ts        # writes bench/out/gpu-carry/{payload.part-NN, SHA256SUMS}
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const carryDir = path.join(repoRoot, "bench", "out", "gpu-carry");
const stage = path.join(carryDir, "stage");
const PART_BYTES = 52 * 1024 * 1024;
const ROOTS = ["node-llama-cpp", "zod", "tsx"];
/** Platform packages other than the CUDA one, and the llama.cpp source bundle (only a source build needs it). */
const EXCLUDES = [
  "node_modules/node-llama-cpp/llama/gitRelease.bundle",
  "node_modules/node-llama-cpp/llama/localBuilds",
  "node_modules/node-llama-cpp/llama/llama.cpp",
];
const KEEP_PLATFORM = "@node-llama-cpp/linux-x64-cuda";

function readManifest(dir: string): Record<string, Record<string, string> | undefined> {
  return JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
}

/** Where Node would resolve `name` from a package in `fromDir`: its own node_modules, then each parent's. */
function resolvePackage(name: string, fromDir: string): string | null {
  let dir = fromDir;
  while (dir.startsWith(repoRoot)) {
    const candidate = path.join(dir, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) return candidate;
    if (dir === repoRoot) break;
    dir = path.dirname(dir);
  }
  return null;
}

/** Every installed package the roots need at run time (dependencies and installed optional dependencies). */
function runtimeClosure(): string[] {
  const seen = new Set<string>();
  const visit = (dir: string) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    const manifest = readManifest(dir);
    const names = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {})];
    for (const name of names) {
      if (name.startsWith("@node-llama-cpp/") && name !== KEEP_PLATFORM) continue;
      const resolved = resolvePackage(name, dir);
      if (resolved) visit(resolved);
      else if (!manifest.optionalDependencies?.[name]) throw new Error(`${name} (needed by ${dir}) is not installed`);
    }
  };
  for (const root of ROOTS) {
    const resolved = resolvePackage(root, repoRoot);
    if (!resolved) throw new Error(`${root} is not installed; run npm install first`);
    visit(resolved);
  }
  return [...seen].map((dir) => path.relative(repoRoot, dir)).sort();
}

rmSync(carryDir, { recursive: true, force: true });
mkdirSync(path.join(stage, "bin"), { recursive: true });
symlinkSync(process.execPath, path.join(stage, "bin", "node"));
const packages = runtimeClosure();
for (const relative of packages) {
  const target = path.join(stage, relative);
  mkdirSync(path.dirname(target), { recursive: true });
  if (!existsSync(target)) symlinkSync(path.join(repoRoot, relative), target);
}
if (!packages.includes(path.join("node_modules", KEEP_PLATFORM))) throw new Error(`${KEEP_PLATFORM} is not installed`);

const payload = path.join(carryDir, "payload.tar.xz");
execFileSync(
  "sh",
  [
    "-c",
    `tar -chf - ${EXCLUDES.map((e) => `--exclude=${e}`).join(" ")} -C "${stage}" bin node_modules | xz -T2 -6 > "${payload}"`,
  ],
  { stdio: "inherit" },
);
execFileSync("split", ["-b", String(PART_BYTES), "-d", "-a", "2", payload, path.join(carryDir, "payload.part-")]);
rmSync(payload);
rmSync(stage, { recursive: true, force: true });
const parts = readdirSync(carryDir).filter((name) => name.startsWith("payload.part-"));
execFileSync("sh", ["-c", `cd "${carryDir}" && sha256sum payload.part-* > SHA256SUMS`]);
const sizes = parts.map((name) => ({
  part: name,
  mib: +(statSync(path.join(carryDir, name)).size / 2 ** 20).toFixed(1),
}));
console.log(JSON.stringify({ node: process.version, packages: packages.length, parts: sizes }));

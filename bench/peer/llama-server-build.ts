import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { progressLine } from "../../adapter/bench/progress.ts";

/**
 * Builds llama.cpp's `llama-server` and `llama-bench` (CPU) from the source node-llama-cpp bundles
 * (`node_modules/node-llama-cpp/llama/gitRelease.bundle`, one squashed commit: its HEAD is what the addon was built
 * from). The two static binaries are cached in `bench/out/llama.cpp-<commit>/`, so only the first run pays for the
 * build (about 8 minutes at -j2); source and objects live in a temporary directory (the llama.cpp tree holds
 * TypeScript and test files that the repository's type check and test runner must not pick up).
 * CMake is kept off the network: no OpenSSL, no web UI download, no app bundle.
 */
export const offlineCmakeFlags = [
  "-DCMAKE_BUILD_TYPE=Release",
  "-DLLAMA_OPENSSL=OFF",
  "-DLLAMA_USE_PREBUILT_UI=OFF",
  "-DLLAMA_BUILD_UI=OFF",
  "-DLLAMA_BUILD_APP=OFF",
  "-DLLAMA_BUILD_TESTS=OFF",
  "-DLLAMA_BUILD_EXAMPLES=OFF",
  "-DBUILD_SHARED_LIBS=OFF",
];

export type PeerBinaries = { commit: string; server: string; bench: string; dir: string };

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, stdio: ["ignore", "inherit", "inherit"] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed with ${result.status}`);
}

function bundleHead(bundle: string): string {
  const heads = spawnSync("git", ["bundle", "list-heads", bundle], { encoding: "utf8" });
  const commit = heads.stdout.split(/\s+/)[0];
  if (heads.status !== 0 || !commit) throw new Error(`cannot read ${bundle}: ${heads.stderr}`);
  return commit;
}

/** Runs the build step, turning Ninja's `[done/total]` lines into progress with an ETA on stderr. */
function buildTargets(buildDir: string, jobs: number): Promise<void> {
  const child = spawn(
    "nice",
    ["-n", "10", "cmake", "--build", buildDir, "-j", String(jobs), "--target", "llama-server", "llama-bench"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const started = performance.now();
  let reported = 0;
  let pending = "";
  child.stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      const step = /^\[(\d+)\/(\d+)\]/.exec(line);
      if (!step) continue;
      const [done, total] = [Number(step[1]), Number(step[2])];
      const now = performance.now();
      if (done < total && now - reported < 10_000) continue;
      reported = now;
      process.stderr.write(`${progressLine("llama.cpp build", done, total, (now - started) / 1000)}\n`);
    }
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`cmake --build exited with ${code}`))));
  });
}

export async function ensurePeerBinaries(repoRoot: string, jobs = 2): Promise<PeerBinaries> {
  const bundle = path.join(repoRoot, "node_modules/node-llama-cpp/llama/gitRelease.bundle");
  const commit = bundleHead(bundle);
  const dir = path.join(repoRoot, "bench/out", `llama.cpp-${commit.slice(0, 12)}`);
  const binaries = { commit, dir, server: path.join(dir, "llama-server"), bench: path.join(dir, "llama-bench") };
  if (fs.existsSync(binaries.server) && fs.existsSync(binaries.bench)) return binaries;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "llama.cpp-build-"));
  try {
    const source = path.join(work, "src");
    const buildDir = path.join(work, "build");
    process.stderr.write(`cloning ${bundle} (llama.cpp ${commit.slice(0, 12)}) into ${source}\n`);
    run("git", ["clone", "--quiet", bundle, source], work);
    run("git", ["-c", "advice.detachedHead=false", "checkout", "--quiet", commit], source);
    run("cmake", ["-S", source, "-B", buildDir, "-G", "Ninja", ...offlineCmakeFlags], work);
    process.stderr.write(`building llama-server and llama-bench (CPU, -j${jobs}; about 8 minutes on 2 cores)\n`);
    await buildTargets(buildDir, jobs);
    fs.mkdirSync(dir, { recursive: true });
    for (const name of ["llama-server", "llama-bench"])
      fs.copyFileSync(path.join(buildDir, "bin", name), path.join(dir, name));
    fs.chmodSync(binaries.server, 0o755);
    fs.chmodSync(binaries.bench, 0o755);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return binaries;
}

import { spawnSync } from "node:child_process";
import path from "node:path";
import {
  canInstallWithApt,
  debianInstallCommand,
  type Environment,
  type MissingPart,
  missingParts,
  onPath,
  type Purpose,
  SYSTEM_PARTS,
  type SystemPart,
} from "./parts.ts";

/**
 * `npm test` and `npm start` begin here: each system part they need is looked for, and what is missing is
 * installed with apt-get where this process may (root on Debian), saying what and why. What is still missing is
 * returned, each with the command that installs it, so that it is told at the top, never 20 minutes into a run.
 */
export type EnsureOptions = {
  env?: Environment;
  parts?: readonly SystemPart[];
  log?: (line: string) => void;
  canInstall?: boolean;
  /** Runs `apt-get args`; its exit status. */
  apt?: (args: string[]) => number;
};

function runApt(args: string[]): number {
  const result = spawnSync("apt-get", args, {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return result.status ?? 1;
}

export function ensureSystemParts(purpose: Purpose, options: EnsureOptions = {}): MissingPart[] {
  const env = options.env ?? process.env;
  const parts = options.parts ?? SYSTEM_PARTS;
  const log = options.log ?? ((line: string) => console.log(line));
  const missing = missingParts(purpose, env, parts);
  if (missing.length === 0 || !(options.canInstall ?? canInstallWithApt(env))) return missing;
  const packages = [...new Set(missing.flatMap(({ part }) => part.debianPackages))];
  for (const { part, problem } of missing) {
    log(`Installing ${part.debianPackages.join(", ")} with apt-get (${problem}): ${part.why}.`);
  }
  const apt = options.apt ?? runApt;
  if (apt(["-q", "update"]) !== 0 || apt(["-q", "install", "-y", "--no-install-recommends", ...packages]) !== 0) {
    log(`apt-get could not install ${packages.join(" ")}.`);
  }
  return missingParts(purpose, env, parts);
}

/** One line per missing part: what it is, what it is for, and the command that installs it. */
export function describeMissing(
  missing: readonly MissingPart[],
  asRoot = process.getuid?.() === 0,
  debian = onPath("apt-get", process.env.PATH) !== undefined,
): string[] {
  return missing.map(({ part, problem }) => {
    const command = debianInstallCommand(part.debianPackages, asRoot);
    const install = debian ? command : `on Debian or Ubuntu \`${command}\`; elsewhere, your system's ${part.name}`;
    return `${part.name}: ${problem}. Needed because ${part.why}. Install it: ${install}`;
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const purpose = process.argv[2];
  if (purpose !== "start" && purpose !== "test") {
    console.error("usage: tsx scripts/system-parts/ensure.ts start|test");
    process.exit(2);
  }
  const missing = ensureSystemParts(purpose);
  if (missing.length > 0) {
    console.error(`npm ${purpose} cannot go on: this machine lacks what it needs, and cannot install it itself.`);
    for (const line of describeMissing(missing)) console.error(`  - ${line}`);
    process.exit(1);
  }
}

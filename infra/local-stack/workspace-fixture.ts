import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ImageRepositoryFixture, LocalStackFixture, SynthesisedPolicies } from "@decision-console/local-aws";
import { ADAPTER_REPOSITORY } from "../../contract/stack/console-contract.ts";
import { LLAMA_CPP_DLC_REPOSITORY } from "../../contract/stack/llama-cpp-dlc.ts";
import synthesised from "./stack-policies.json" with { type: "json" };

/**
 * The stack local mode stands in for, as this checkout has it: the policies and projects the CDK app synthesises
 * (`stack-policies.json`, `npm run synth:local-policies`), the bucket CloudFormation would have named, and what
 * each image repository's images are and run here. Whoever starts a control plane passes this to it; the emulator
 * knows nothing of the workspace itself.
 */

/** The artifact bucket's local name (CloudFormation generates the deployed one). */
export const LOCAL_ARTIFACT_BUCKET = "decision-console-local";

export const REPO_ROOT = path.resolve(import.meta.dirname, "..", "..");

/** The adapter image's sources, as `infra/docker/Dockerfile.*` copies them (its digest is their hash). */
const ADAPTER_SOURCES = ["adapter/package.json", "adapter/src"];

/**
 * What the adapter image runs: `ENTRYPOINT ["node", "adapter/dist/cli.js"]` with `CMD ["serve"]`. Locally the
 * TypeScript sources run through tsx (always current with the tree), or the built `dist/` when
 * `LOCAL_ADAPTER_ENTRY=dist`.
 */
function adapterArgs(root: string, tsx: string, env: NodeJS.ProcessEnv): string[] {
  if (env.LOCAL_ADAPTER_ENTRY === "dist") return [path.join(root, "adapter", "dist", "cli.js"), "serve"];
  return ["--import", tsx, path.join(root, "adapter", "src", "cli.ts"), "serve"];
}

/** The llama.cpp DLC's images run local mode's llama-server stand-in, which runs the adapter's engine. */
function standInArgs(root: string, tsx: string, variant: "cpu" | "cuda"): string[] {
  return ["--import", tsx, path.join(root, "adapter", "stand-ins", "llama-server", "main.ts"), variant];
}

/** The fixture for the checkout at `root`, with every path resolved there. */
export function workspaceStackFixture(root = REPO_ROOT, env: NodeJS.ProcessEnv = process.env): LocalStackFixture {
  const tsx = pathToFileURL(createRequire(path.join(root, "package.json")).resolve("tsx/esm")).href;
  const cwd = path.join(root, "adapter");
  const adapter: ImageRepositoryFixture = {
    name: ADAPTER_REPOSITORY,
    contract: "adapter",
    programs: {
      cpu: { args: adapterArgs(root, tsx, env), cwd },
      cuda: { args: adapterArgs(root, tsx, env), cwd },
    },
    sourceRoot: root,
    sources: ADAPTER_SOURCES,
  };
  const dlc: ImageRepositoryFixture = {
    name: LLAMA_CPP_DLC_REPOSITORY,
    registry: { mapping: "LlamaCppDlcAccounts" },
    contract: "llama-server",
    programs: {
      cpu: { args: standInArgs(root, tsx, "cpu"), cwd },
      cuda: { args: standInArgs(root, tsx, "cuda"), cwd },
    },
    sourceRoot: root,
    sources: [...ADAPTER_SOURCES, "adapter/stand-ins/llama-server"],
  };
  return {
    stack: synthesised as SynthesisedPolicies,
    bucket: LOCAL_ARTIFACT_BUCKET,
    imageRepositories: [adapter, dlc],
    buildImage: { nodeModules: path.join(root, "node_modules"), lockfile: path.join(root, "package-lock.json") },
  };
}

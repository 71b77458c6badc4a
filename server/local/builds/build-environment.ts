import fs from "node:fs";
import path from "node:path";

/**
 * The build container's toolchain, as far as local mode can stand in for a CodeBuild image: Node is the control
 * plane's own, and `npm install`/`npm ci` are answered from the control plane's installed dependencies (nothing is
 * downloaded) when the build's package-lock.json is the one they were installed from; any other npm command runs.
 */
export function prepareToolchain(scratch: string, repoRoot: string): { binDir: string; env: Record<string, string> } {
  const binDir = path.join(scratch, "bin");
  fs.mkdirSync(binDir, { recursive: true });
  const npm = path.join(binDir, "npm");
  fs.writeFileSync(
    npm,
    `#!/usr/bin/env bash
case "$1" in
  install|i|ci)
    if ! cmp -s package-lock.json "$LOCAL_CODEBUILD_LOCKFILE"; then
      echo "npm $1: this build's package-lock.json is not the one local CodeBuild's dependencies were installed from; local mode cannot install others" >&2
      exit 1
    fi
    [ -e node_modules ] || ln -s "$LOCAL_CODEBUILD_NODE_MODULES" node_modules
    echo "npm $*: local CodeBuild provides the dependencies this package-lock.json pins (nothing is downloaded)"
    ;;
  *) exec "$LOCAL_CODEBUILD_NPM" "$@" ;;
esac
`,
    { mode: 0o755 },
  );
  const nodeDir = path.dirname(process.execPath);
  const realNpm = fs.existsSync(path.join(nodeDir, "npm")) ? path.join(nodeDir, "npm") : "/usr/bin/npm";
  return {
    binDir,
    env: {
      LOCAL_CODEBUILD_LOCKFILE: path.join(repoRoot, "package-lock.json"),
      LOCAL_CODEBUILD_NODE_MODULES: path.join(repoRoot, "node_modules"),
      LOCAL_CODEBUILD_NPM: realNpm,
    },
  };
}

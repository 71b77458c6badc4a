import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Buildspec, type BuildspecRun, runBuildspec } from "./codebuild-emulator.ts";

export const STUB_REGISTRY = "123456789012.dkr.ecr.eu-west-1.amazonaws.com";
export const STUB_DIGEST = `sha256:${"ab12".repeat(16)}`;

export interface RegistryStubs {
  /** Runs an image buildspec's phases from `cwd` with the stubs first on PATH; `commands` is what they were asked. */
  build: (
    buildspec: Buildspec,
    cwd: string,
    env: Record<string, string>,
  ) => Promise<BuildspecRun & { commands: string[] }>;
  remove: () => Promise<void>;
}

/**
 * `docker` and `aws` stand-ins that log their arguments, for image buildspecs run in the CodeBuild emulator:
 * `aws ecr describe-images` answers $STUB_DIGEST (STUB_DIGEST unless a build sets it).
 */
export async function registryStubs(): Promise<RegistryStubs> {
  const dir = await mkdtemp(join(tmpdir(), "image-build-stubs-"));
  const docker = `#!/bin/sh\n[ "$1" = login ] && cat > /dev/null\necho "docker $*" >> "$STUB_LOG"\n`;
  const aws = [
    "#!/bin/sh",
    'echo "aws $*" >> "$STUB_LOG"',
    'case "$*" in',
    "  *get-login-password*) echo token ;;",
    '  *describe-images*) echo "$STUB_DIGEST" ;;',
    "esac",
  ].join("\n");
  await writeFile(join(dir, "docker"), docker);
  await writeFile(join(dir, "aws"), `${aws}\n`);
  await chmod(join(dir, "docker"), 0o755);
  await chmod(join(dir, "aws"), 0o755);
  const log = join(dir, "log");
  return {
    build: async (buildspec, cwd, env) => {
      await rm(log, { force: true });
      const result = await runBuildspec(buildspec, {
        cwd,
        phases: ["install", "pre_build", "build", "post_build"],
        env: {
          PATH: `${dir}:${process.env.PATH}`,
          STUB_LOG: log,
          STUB_DIGEST,
          AWS_REGION: "eu-west-1",
          CODEBUILD_BUILD_NUMBER: "7",
          ...env,
        },
      });
      const commands = (await readFile(log, "utf8").catch(() => "")).trim().split("\n");
      return { ...result, commands };
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

import { execFile } from "node:child_process";
import { chmod, chown, mkdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * Lays out, in `volumeDir`, the task volume (a bind mount: on Fargate a volume with no host) that ECS mounts at
 * `containerPath` of a container started from an image whose files are under `imageRoot` and whose VOLUME
 * instructions declare `imageVolumes`. The ECS developer guide, "Use bind mounts with Amazon ECS", considerations:
 * "If the absolute path that's specified in the VOLUME directive is the same as the containerPath that's specified
 * in the task definition, the data in the VOLUME directive path is copied to the data volume", and "By default, the
 * volume permissions are set to 0755 and the owner as root. You can customize these permissions in the Dockerfile."
 * So a path the image declares arrives with the image's files, owners and modes; any other arrives empty, root's,
 * 0755. Owners can be set only as root; elsewhere the folder is this process's, which is the closest it can come.
 */
export async function prepareEcsBindMount(
  imageRoot: string,
  imageVolumes: readonly string[],
  containerPath: string,
  volumeDir: string,
): Promise<void> {
  const fromImage = join(imageRoot, containerPath);
  const declared = imageVolumes.some((path) => path.replace(/\/+$/, "") === containerPath.replace(/\/+$/, ""));
  if (declared && (await stat(fromImage).catch(() => undefined))?.isDirectory()) {
    await mkdir(join(volumeDir, ".."), { recursive: true });
    await run("cp", ["-a", "--no-target-directory", fromImage, volumeDir]);
    return;
  }
  await mkdir(volumeDir, { recursive: true });
  if (process.getuid?.() === 0) await chown(volumeDir, 0, 0);
  await chmod(volumeDir, 0o755);
}

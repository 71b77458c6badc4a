import { create } from "tar";

/**
 * Writes `model.tar.gz` with the given entries (paths relative to `stageDir`) at the archive's top level.
 * Fixed mtimes and portable headers make the same inputs give the same archive bytes.
 */
export async function createModelArchive(stageDir: string, entries: string[], archivePath: string): Promise<void> {
  await create(
    { gzip: true, cwd: stageDir, file: archivePath, portable: true, follow: true, mtime: new Date(0) },
    entries,
  );
}

import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

export interface FileDigest {
  sha256: string;
  bytes: number;
}

export async function digestFile(path: string): Promise<FileDigest> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 4 * 1024 * 1024 })) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest("hex"), bytes };
}

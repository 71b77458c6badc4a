import { createHash } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";
import zlib from "node:zlib";
import { AwsError } from "./aws-error.ts";

/** The checksum algorithms of S3's model (ChecksumAlgorithm), by the x-amz-checksum-* header each names. */
const ALGORITHMS = [
  "CRC32",
  "CRC32C",
  "CRC64NVME",
  "SHA1",
  "SHA256",
  "SHA512",
  "MD5",
  "XXHASH64",
  "XXHASH3",
  "XXHASH128",
] as const;

interface Digest {
  update(chunk: Buffer): void;
  base64(): string;
}

/** The algorithms Node.js computes; local S3 verifies these, and refuses the others rather than store unverified. */
const DIGESTS: Partial<Record<(typeof ALGORITHMS)[number], () => Digest>> = {
  CRC32: () => {
    let crc = 0;
    return {
      update: (chunk) => {
        crc = zlib.crc32(chunk, crc);
      },
      base64: () => {
        const bytes = Buffer.alloc(4);
        bytes.writeUInt32BE(crc >>> 0);
        return bytes.toString("base64");
      },
    };
  },
  SHA1: () => hashDigest("sha1"),
  SHA256: () => hashDigest("sha256"),
  SHA512: () => hashDigest("sha512"),
  MD5: () => hashDigest("md5"),
};

function hashDigest(algorithm: string): Digest {
  const hash = createHash(algorithm);
  return { update: (chunk) => hash.update(chunk), base64: () => hash.digest("base64") };
}

/** The checksum a request claims for its body: in an x-amz-checksum-* header, or in the trailer x-amz-trailer names. */
export interface ClaimedChecksum {
  algorithm: (typeof ALGORITHMS)[number];
  header: string;
  /** The header's value; undefined when it comes in the aws-chunked trailer. */
  value?: string;
}

/** The one checksum of the request (its input's Checksum<ALGORITHM> member, or its x-amz-trailer), if any. */
export function claimedChecksum(input: Record<string, unknown>, trailer: string | undefined): ClaimedChecksum | null {
  for (const algorithm of ALGORITHMS) {
    const header = `x-amz-checksum-${algorithm.toLowerCase()}`;
    const value = input[`Checksum${algorithm}`];
    if (typeof value === "string") return { algorithm, header, value };
    if (trailer?.trim().toLowerCase() === header) return { algorithm, header };
  }
  if (trailer !== undefined) {
    throw new AwsError("InvalidRequest", `The x-amz-trailer ${trailer} is not a checksum S3 knows.`, 400);
  }
  return null;
}

/**
 * Verifies the body against its claimed checksum when it ends (`claimed()`: a trailer is only known then), with
 * S3's BadDigest on a mismatch; an algorithm Node.js does not compute is refused before anything is stored.
 */
export function checksumCheck(checksum: ClaimedChecksum, claimed: () => string | undefined): Transform {
  const create = DIGESTS[checksum.algorithm];
  if (!create) {
    throw new AwsError(
      "NotImplemented",
      `A header you provided implies functionality that is not implemented: local mode does not verify ${checksum.algorithm} checksums (it verifies CRC32, SHA1, SHA256, SHA512 and MD5).`,
      501,
      { Header: checksum.header },
    );
  }
  const digest = create();
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      digest.update(chunk);
      callback(null, chunk);
    },
    flush(callback: TransformCallback) {
      const value = claimed();
      if (value === undefined) {
        callback(new AwsError("InvalidRequest", `The body has no ${checksum.header} trailer; x-amz-trailer named it.`));
      } else if (value !== digest.base64()) {
        callback(
          new AwsError("BadDigest", `The ${checksum.algorithm} you specified did not match the calculated checksum.`),
        );
      } else callback();
    },
  });
}

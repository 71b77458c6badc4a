/** Why packaging stopped; the CLI and the local control plane report `code` and show `message` to the operator. */
export type PackagerErrorCode = "invalid_input" | "download_failed" | "checksum_mismatch" | "upload_failed";

export class PackagerError extends Error {
  constructor(
    readonly code: PackagerErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "PackagerError";
  }
}

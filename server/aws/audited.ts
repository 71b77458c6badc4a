import { type AuditEntry, awsRequestIdOf, recordAudit } from "../audit/record.ts";
import { AppError } from "../http/app-error.ts";
import type { Db } from "../store/database.ts";

/**
 * Runs one console mutation and writes its audit line (who, what, AWS request id, result) once the outcome is known.
 * The AWS request id comes from the result's `$metadata` or the mapped error's details.
 */
export async function audited<T>(
  db: Db,
  entry: Pick<AuditEntry, "actor" | "action" | "target"> & { detail?: unknown },
  run: () => Promise<T>,
): Promise<T> {
  try {
    const value = await run();
    recordAudit({ ...entry, result: "ok", awsRequestId: awsRequestIdOf(value) }, db);
    return value;
  } catch (error) {
    const details = error instanceof AppError ? error.details : undefined;
    const awsRequestId = typeof details?.awsRequestId === "string" ? details.awsRequestId : awsRequestIdOf(error);
    recordAudit(
      { ...entry, result: "error", awsRequestId, detail: { request: entry.detail, error: (error as Error).message } },
      db,
    );
    throw error;
  }
}

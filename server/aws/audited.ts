import { type AuditEntry, awsRequestIdOf, recordAudit } from "../audit/record.ts";
import { AppError } from "../http/app-error.ts";
import type { Store } from "../store/store.ts";
import { type AwsCall, changeRequestId, withAwsCalls } from "./request-ids.ts";

/**
 * Runs one console mutation and writes its audit line (who, what, AWS request id, result) once the outcome is known.
 * The AWS request id is that of the AWS call that made the change (the last call that is not a read, as the
 * console's clients saw it answered), else the result's `$metadata` or the mapped error's details. `outcome`, when
 * given, says what the change did from its result (a roll back's from and to) in place of `detail`.
 */
export async function audited<T>(
  store: Store,
  entry: Pick<AuditEntry, "actor" | "action" | "target"> & { detail?: unknown; outcome?: (value: T) => unknown },
  run: () => Promise<T>,
): Promise<T> {
  const { outcome, ...line } = entry;
  let calls: AwsCall[] = [];
  try {
    const value = await withAwsCalls(run, (seen) => {
      calls = seen;
    });
    const detail = outcome ? outcome(value) : line.detail;
    await recordAudit(
      { ...line, detail, result: "ok", awsRequestId: changeRequestId(calls) ?? awsRequestIdOf(value) },
      store,
    );
    return value;
  } catch (error) {
    const details = error instanceof AppError ? error.details : undefined;
    const awsRequestId =
      typeof details?.awsRequestId === "string"
        ? details.awsRequestId
        : (changeRequestId(calls) ?? awsRequestIdOf(error));
    await recordAudit(
      { ...line, result: "error", awsRequestId, detail: { request: line.detail, error: (error as Error).message } },
      store,
    );
    throw error;
  }
}

import fs from "node:fs";
import path from "node:path";

/**
 * When CONSOLE_REQUEST_CAPTURE names a folder (`npm test` sets it), every command a console client sends is
 * appended to `<folder>/<pid>.jsonl` as `{service, operation, input}`, so `tests/aws-models/` can validate each
 * input against AWS's own service model (botocore). Unset, nothing is added to the client.
 */
export const REQUEST_CAPTURE_VARIABLE = "CONSOLE_REQUEST_CAPTURE";

/** Strings longer than this are recorded by length only: their type and length are all the models constrain. */
const LONG_STRING = 64 * 1024;

interface CapturableClient {
  config: { serviceId?: string };
  middlewareStack: {
    add(
      middleware: (
        next: (args: { input: unknown }) => Promise<unknown>,
        context: { commandName?: string },
      ) => (args: { input: unknown }) => Promise<unknown>,
      options: { step: "initialize"; priority: "high"; name: string },
    ): void;
  };
}

export function captureRequests<Client>(client: Client, folder: string | undefined): Client {
  if (!folder) return client;
  const capturable = client as unknown as CapturableClient;
  const file = path.join(folder, `${process.pid}.jsonl`);
  capturable.middlewareStack.add(
    (next, context) => async (args) => {
      const line = JSON.stringify({
        service: capturable.config.serviceId,
        operation: context.commandName?.replace(/Command$/, ""),
        input: capturedValue(args.input),
      });
      fs.mkdirSync(folder, { recursive: true });
      fs.appendFileSync(file, `${line}\n`);
      return next(args);
    },
    { step: "initialize", priority: "high", name: "consoleRequestCapture" },
  );
  return client;
}

/** SDK v3 values in JSON: dates, bytes and streams tagged so the validator can rebuild their Python types. */
export function capturedValue(value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (value instanceof Date) return { $date: Number.isNaN(value.getTime()) ? "invalid" : value.toISOString() };
  if (value instanceof Uint8Array) return { $bytes: value.byteLength };
  if (typeof value === "string") return value.length > LONG_STRING ? { $longString: value.length } : value;
  if (typeof value !== "object") return value;
  if (isStream(value)) return { $stream: true };
  if (Array.isArray(value)) return value.map(capturedValue);
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) if (member !== undefined) out[key] = capturedValue(member);
  return out;
}

function isStream(value: object): boolean {
  return (
    typeof (value as { pipe?: unknown }).pipe === "function" ||
    typeof (value as { getReader?: unknown }).getReader === "function" ||
    (typeof Blob !== "undefined" && value instanceof Blob)
  );
}

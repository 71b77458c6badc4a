import { AsyncLocalStorage } from "node:async_hooks";

/** One AWS call a console client made: its operation and the request id AWS answered it with (`$metadata`). */
export interface AwsCall {
  operation: string;
  requestId: string | null;
}

const scope = new AsyncLocalStorage<AwsCall[]>();

interface MiddlewareClient {
  middlewareStack: {
    add(
      middleware: (
        next: (args: unknown) => Promise<{ output?: unknown }>,
        context: { commandName?: string },
      ) => (args: unknown) => Promise<{ output?: unknown }>,
      options: { step: "initialize"; name: string },
    ): void;
  };
}

function requestIdOf(value: unknown): string | null {
  const id = (value as { $metadata?: { requestId?: unknown } } | null | undefined)?.$metadata?.requestId;
  return typeof id === "string" && id !== "" ? id : null;
}

/** Adds the middleware that notes each call's request id in the current `withAwsCalls` scope (none outside one). */
export function noteRequestIds<Client>(client: Client): Client {
  (client as unknown as MiddlewareClient).middlewareStack.add(
    (next, context) => async (args) => {
      const calls = scope.getStore();
      if (!calls) return next(args);
      const operation = context.commandName?.replace(/Command$/, "") ?? "";
      try {
        const result = await next(args);
        calls.push({ operation, requestId: requestIdOf(result.output) });
        return result;
      } catch (error) {
        calls.push({ operation, requestId: requestIdOf(error) });
        throw error;
      }
    },
    { step: "initialize", name: "consoleAuditRequestIds" },
  );
  return client;
}

/** Runs `run`, handing `seen` every AWS call the console's clients made for it, whether it succeeded or threw. */
export async function withAwsCalls<T>(run: () => Promise<T>, seen: (calls: AwsCall[]) => void): Promise<T> {
  const calls: AwsCall[] = [];
  try {
    return await scope.run(calls, run);
  } finally {
    seen(calls);
  }
}

const readOnly = /^(Describe|List|Get|Head|Filter|Search|BatchGet)/;

/**
 * The request id of the call that made the change: the last call that is not a read (a failed change's own id
 * included); null when no changing call was made or AWS gave it no id.
 */
export function changeRequestId(calls: readonly AwsCall[]): string | null {
  const change = calls.filter((call) => !readOnly.test(call.operation)).at(-1);
  return change?.requestId ?? null;
}

import type { JsonOperation } from "./json-rpc.ts";
import type { AwsRequest } from "./request.ts";

// The keys that are not optional (`?`): an empty object does not satisfy a `Pick` of one.
type RequiredKeys<T> = { [K in keyof T]-?: Record<never, never> extends Pick<T, K> ? never : K }[keyof T];

/**
 * An SDK type as it crosses the wire in AWS's JSON protocols: timestamps are epoch seconds (the SDK parses them into
 * `Date`), `$metadata` is the client's own, never part of the body, and a member the service model requires is
 * present (the SDK types it `X | undefined` so that old clients survive new models; a validated request has it).
 */
export type OnTheWire<T> = T extends Date
  ? number
  : T extends readonly (infer U)[]
    ? OnTheWire<U>[]
    : T extends object
      ? {
          [K in keyof T as K extends "$metadata" ? never : K]: K extends RequiredKeys<T>
            ? OnTheWire<NonNullable<T[K]>>
            : OnTheWire<T[K]>;
        }
      : T;

/** A handler typed with the SDK's `XCommandInput` and `XCommandOutput`. */
export type TypedOperation<Input, Output> = (
  input: OnTheWire<Input>,
  request: AwsRequest,
) => OnTheWire<Output> | Promise<OnTheWire<Output>>;

/**
 * The handlers of a service as the JSON protocol calls them. The typing is sound because every input is first
 * validated against the operation's shape in the service model (`withInputShapes`), which is what the SDK's input
 * types are generated from.
 */
// biome-ignore lint/suspicious/noExplicitAny: each handler keeps its own SDK types; the table only needs their shape
export function asJsonOperations(handlers: Record<string, TypedOperation<any, any>>): Record<string, JsonOperation> {
  return handlers as unknown as Record<string, JsonOperation>;
}

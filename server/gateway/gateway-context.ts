import "server-only";
import { consoleContext } from "../context.ts";
import type { Store } from "../store/store.ts";
import type { GatewayDeps } from "./decision-gateway.ts";
import { storeKeyLimits } from "./key-limits.ts";
import { knownKeys } from "./known-keys.ts";

/** One per store and process: the keys' limits, and the keys this process has read (known-keys.ts). */
function keysOf(store: Store): Pick<GatewayDeps, "limits" | "keys"> {
  const cached = globalThis as { __consoleGatewayKeys?: WeakMap<Store, Pick<GatewayDeps, "limits" | "keys">> };
  cached.__consoleGatewayKeys ??= new WeakMap();
  let keys = cached.__consoleGatewayKeys.get(store);
  if (!keys) {
    keys = { limits: storeKeyLimits(store), keys: knownKeys(store) };
    cached.__consoleGatewayKeys.set(store, keys);
  }
  return keys;
}

/** What the gateway routes work with: the console's store, its SageMaker clients and the keys' limits. */
export function gatewayContext(): GatewayDeps & { sageMaker: ReturnType<typeof consoleContext>["aws"]["sageMaker"] } {
  const { store, aws } = consoleContext();
  return { store, runtime: aws.runtime, sageMaker: aws.sageMaker, ...keysOf(store) };
}

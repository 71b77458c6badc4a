import "server-only";
import { consoleContext } from "../context.ts";
import type { Store } from "../store/store.ts";
import type { GatewayDeps } from "./decision-gateway.ts";
import { type KeyLimits, storeKeyLimits } from "./key-limits.ts";

function limitsOf(store: Store): KeyLimits {
  const cached = globalThis as { __consoleGatewayLimits?: WeakMap<Store, KeyLimits> };
  cached.__consoleGatewayLimits ??= new WeakMap();
  let limits = cached.__consoleGatewayLimits.get(store);
  if (!limits) {
    limits = storeKeyLimits(store);
    cached.__consoleGatewayLimits.set(store, limits);
  }
  return limits;
}

/** What the gateway routes work with: the console's store, its SageMaker clients and the keys' limits. */
export function gatewayContext(): GatewayDeps & { sageMaker: ReturnType<typeof consoleContext>["aws"]["sageMaker"] } {
  const { store, aws } = consoleContext();
  return { store, runtime: aws.runtime, sageMaker: aws.sageMaker, limits: limitsOf(store) };
}

import { createRateLimiter, type RateLimiter } from "../auth/rate-limit.ts";
import { clientAddress, type ForwardingSettings } from "../http/forwarded.ts";
import type { Store } from "../store/store.ts";
import { recordAudit } from "./record.ts";

/** A request the console refused (a role too low, a cross-site request, a resource it does not manage). */
export interface Refusal {
  /** The signed-in caller; null when nobody is. */
  actor: string | null;
  address: string;
  method: string;
  path: string;
  status: number;
  reason: string;
}

/** `request` refused with `status` and `reason`, by the caller `actor` (null: nobody signed in). */
export function refusalOf(
  request: Request,
  settings: ForwardingSettings,
  actor: string | null,
  status: number,
  reason: string,
): Refusal {
  const { pathname } = new URL(request.url);
  return {
    actor,
    address: clientAddress(request, settings),
    method: request.method.toUpperCase(),
    path: pathname,
    status,
    reason,
  };
}

type Budget = { burst: number; perMinute: number };

export const refusalBudgets = {
  /** One signed-in user, or one address when nobody is signed in. */
  perCaller: { burst: 20, perMinute: 10 },
  /** Everyone together: what a flood from many addresses can write. */
  everyone: { burst: 200, perMinute: 100 },
} satisfies Record<string, Budget>;

export interface RefusalLog {
  /** Writes the refusal's audit row unless a budget is spent; true when it was written. */
  record(store: Store, refusal: Refusal): Promise<boolean>;
}

/** Paths and reasons come from the request: a row keeps at most this much of each. */
const MAX_TEXT = 500;

/**
 * Refusals written to the audit log, at most `budgets` of them: a flood of refused requests cannot fill the disk.
 * Those left out are counted, and the next row written says how many (`notWrittenBefore`).
 */
export function createRefusalLog(
  budgets: Record<keyof typeof refusalBudgets, Budget> = refusalBudgets,
  now: () => number = Date.now,
): RefusalLog {
  const perCaller: RateLimiter = createRateLimiter({ ...budgets.perCaller, now });
  const everyone: RateLimiter = createRateLimiter({ ...budgets.everyone, now });
  let notWritten = 0;
  return {
    async record(store, refusal) {
      const caller = refusal.actor === null ? `address:${refusal.address}` : `user:${refusal.actor}`;
      if (!perCaller.take(caller).allowed || !everyone.take("").allowed) {
        notWritten++;
        return false;
      }
      const written = notWritten;
      notWritten = 0;
      await recordAudit(
        {
          actor: refusal.actor ?? "anonymous",
          action: "request.refuse",
          target: `${refusal.method} ${refusal.path}`.slice(0, MAX_TEXT),
          result: "denied",
          detail: {
            status: refusal.status,
            reason: refusal.reason.slice(0, MAX_TEXT),
            address: refusal.address,
            ...(written > 0 ? { notWrittenBefore: written } : {}),
          },
        },
        store,
      );
      return true;
    },
  };
}

/** The process's refusal log, shared by the proxy and the route bundles. */
export function refusalLog(): RefusalLog {
  const store = globalThis as { __consoleRefusalLog?: RefusalLog };
  store.__consoleRefusalLog ??= createRefusalLog();
  return store.__consoleRefusalLog;
}

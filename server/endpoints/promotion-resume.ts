import { inProcessWork } from "../background/in-process-work.ts";
import { consoleContext } from "../context.ts";
import { finishShadowPromotion, type PromotionDeps, type PromotionWait, waitingPromotions } from "./shadow-test.ts";

/** Promotions this process is finishing. */
const promotions = () =>
  inProcessWork("shadow promotions", (endpoint, error) =>
    console.error(
      JSON.stringify({ level: "error", msg: "shadow promotion not finished", endpoint, error: String(error) }),
    ),
  );

/**
 * Takes up the shadow promotions waiting in the store that no replica is finishing (a stopped or killed console
 * left them): each is finished by the replica that gets its lease (finishShadowPromotion). Returns at once; the
 * promotions it took up settle in the background.
 */
export async function resumeShadowPromotions(deps?: PromotionDeps, wait: PromotionWait = {}): Promise<string[]> {
  const context = deps ?? consoleContext();
  const endpoints = await waitingPromotions(context.store);
  for (const endpoint of endpoints) void takeUpPromotion(context, endpoint, wait);
  return endpoints;
}

/**
 * Finishes `endpoint`'s stored promotion in the background unless this process already is (the request that
 * promoted, or an earlier round); settles when it has.
 */
export function takeUpPromotion(deps: PromotionDeps, endpoint: string, wait: PromotionWait = {}): Promise<void> {
  return promotions().takeUp(endpoint, () => finishShadowPromotion(deps, endpoint, wait));
}

/** Waits for the promotions this process took up (shutdown aborts them through `wait.signal` first). */
export async function settledPromotions(): Promise<void> {
  await promotions().settled();
}

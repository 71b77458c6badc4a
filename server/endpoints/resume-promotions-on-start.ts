import { consoleContext } from "../context.ts";
import { finishShadowPromotion, type PromotionDeps, type PromotionWait, waitingPromotions } from "./shadow-test.ts";

/**
 * Takes up the shadow promotions a stopped or killed console left waiting; called once when the server starts. Settles
 * once each has started its update or been given up.
 */
export async function resumeShadowPromotions(deps?: PromotionDeps, wait: PromotionWait = {}): Promise<void> {
  try {
    const context = deps ?? consoleContext();
    const endpoints = await waitingPromotions(context.store);
    if (endpoints.length > 0)
      console.log(JSON.stringify({ level: "info", msg: "resuming shadow promotions", endpoints }));
    await Promise.all(
      endpoints.map((endpoint) =>
        finishShadowPromotion(context, endpoint, wait).catch((error: unknown) =>
          console.error(
            JSON.stringify({ level: "error", msg: "shadow promotion not finished", endpoint, error: String(error) }),
          ),
        ),
      ),
    );
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "cannot resume shadow promotions", error: String(error) }));
  }
}

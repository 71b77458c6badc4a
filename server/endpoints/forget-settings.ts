import type { ForgottenSettings } from "../../contract/endpoints/endpoint.ts";
import type { Store } from "../store/store.ts";

/**
 * What the console kept about a deployed endpoint, forgotten when it is deleted, so an endpoint later created under
 * the same name starts without them: its evaluation links (deployed, promoted, updated or chosen), its kept
 * threshold and its drift baselines. Its captured decisions, labels, reviews and gateway usage stay: they are what
 * happened under that name, as CloudWatch keeps an endpoint's metrics after it is gone.
 */
export async function forgetEndpointSettings(store: Store, endpointName: string): Promise<ForgottenSettings> {
  return store.transaction().execute(async (trx) => {
    const links = await trx.deleteFrom("evaluation_links").where("endpoint_name", "=", endpointName).executeTakeFirst();
    const threshold = await trx
      .deleteFrom("endpoint_thresholds")
      .where("endpoint_name", "=", endpointName)
      .executeTakeFirst();
    const baselines = await trx
      .deleteFrom("drift_baselines")
      .where("endpoint_name", "=", endpointName)
      .executeTakeFirst();
    return {
      evaluationLinks: Number(links.numDeletedRows),
      threshold: Number(threshold.numDeletedRows) > 0,
      driftBaselines: Number(baselines.numDeletedRows),
    };
  });
}

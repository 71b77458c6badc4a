import type { UpdateRequest, UpdateResult } from "../../contract/endpoints/update.ts";

/**
 * The audit line of an update: a change is `endpoint.update` with the request; a roll back (`rollBackTo`, whose
 * change is empty) is `endpoint.rollback` naming the configuration it left and the one it went back to.
 */
export function updateAuditEntry(actor: string, target: string, request: UpdateRequest) {
  if (request.rollBackTo === undefined) return { actor, action: "endpoint.update", target, detail: request };
  return {
    actor,
    action: "endpoint.rollback",
    target,
    detail: { to: request.rollBackTo, strategy: request.strategy, alarms: request.alarms },
    outcome: (result: UpdateResult) => ({
      from: result.previousEndpointConfigName,
      to: result.endpointConfigName,
      alarms: result.alarms,
    }),
  };
}

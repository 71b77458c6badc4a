import { describe, expect, it } from "vitest";
import { type UpdateResult, updateRequestSchema } from "../../contract/endpoints/update.ts";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import { listAudit } from "../audit/record.ts";
import { audited } from "../aws/audited.ts";
import { updateAuditEntry } from "./update-audit.ts";

const result: UpdateResult = {
  name: "dc-demo",
  endpointConfigName: "dc-demo",
  modelName: "dc-demo",
  previousEndpointConfigName: "dc-demo-3f2a9c1",
  alarms: ["dc-demo-5xx"],
  deploymentConfig: {},
  autoscalingReRegistered: null,
  status: "Updating",
};

describeOnStores("the audit line of an update", (current) => {
  it("records a manual roll back as a roll back from one configuration to the other, not an empty update", async () => {
    const { store } = current();
    const request = updateRequestSchema.parse({
      change: {},
      strategy: { kind: "all-at-once", waitSeconds: 0 },
      alarms: { kind: "none" },
      rollBackTo: "dc-demo",
    });
    await audited(store, updateAuditEntry("ops", "dc-demo", request), async () => result);
    const [line] = await listAudit({ limit: 1 }, store);
    expect(line?.action).toBe("endpoint.rollback");
    expect(line?.detail).toEqual({ from: "dc-demo-3f2a9c1", to: "dc-demo", alarms: ["dc-demo-5xx"] });
  });
});

describe("the audit entry of an update", () => {
  it("keeps recording a change as endpoint.update with what was asked", () => {
    const request = updateRequestSchema.parse({
      change: { instanceCount: 2 },
      strategy: { kind: "all-at-once", waitSeconds: 0 },
      alarms: { kind: "none" },
    });
    expect(updateAuditEntry("ops", "dc-demo", request)).toMatchObject({ action: "endpoint.update", detail: request });
  });
});

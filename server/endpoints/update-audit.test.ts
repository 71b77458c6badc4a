import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type UpdateResult, updateRequestSchema } from "../../contract/endpoints/update.ts";
import { listAudit } from "../audit/record.ts";
import { audited } from "../aws/audited.ts";
import { openDatabase } from "../store/database.ts";
import { updateAuditEntry } from "./update-audit.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "update-audit-"));
const db = openDatabase(path.join(dir, "console.db"));
afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

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

describe("the audit line of an update", () => {
  it("records a manual roll back as a roll back from one configuration to the other, not an empty update", async () => {
    const request = updateRequestSchema.parse({
      change: {},
      strategy: { kind: "all-at-once", waitSeconds: 0 },
      alarms: { kind: "none" },
      rollBackTo: "dc-demo",
    });
    await audited(db, updateAuditEntry("ops", "dc-demo", request), async () => result);
    const [line] = listAudit({ limit: 1 }, db);
    expect(line?.action).toBe("endpoint.rollback");
    expect(line?.detail).toEqual({ from: "dc-demo-3f2a9c1", to: "dc-demo", alarms: ["dc-demo-5xx"] });
  });

  it("keeps recording a change as endpoint.update with what was asked", () => {
    const request = updateRequestSchema.parse({
      change: { instanceCount: 2 },
      strategy: { kind: "all-at-once", waitSeconds: 0 },
      alarms: { kind: "none" },
    });
    expect(updateAuditEntry("ops", "dc-demo", request)).toMatchObject({ action: "endpoint.update", detail: request });
  });
});

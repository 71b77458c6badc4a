import { describe, expect, it } from "vitest";
import { alarmReasonText, rollbackReasonText } from "./rollback-reason.ts";

const latencyRollback =
  "Rolled back to endpoint configuration dc-a-1: the CloudWatch alarm dc-a-rollback-latency-average went into ALARM " +
  "during the deployment of dc-a-2 (Threshold Crossed: 1 out of the last 1 datapoints [2512345.0 (07/12/26 10:00:00)] " +
  "was greater than the threshold (2000000.0) (minimum 1 datapoint for OK -> ALARM transition).)";

describe("a rollback's reason", () => {
  it("quotes a latency alarm's datapoints and threshold in ms, as the form speaks", () => {
    const text = rollbackReasonText(latencyRollback);
    expect(text).toContain("[2512.345 ms (07/12/26 10:00:00)]");
    expect(text).toContain("the threshold (2000 ms)");
    expect(text).not.toContain("2000000");
  });

  it("names a person's abort as the cause, not the alarm the console set to stop the update", () => {
    const aborted =
      "Rolled back to endpoint configuration dc-a-1: the CloudWatch alarm dc-a-rollback-5xx went into ALARM during " +
      "the deployment of dc-a-2 (Abort and roll back, asked from the console by alice)";
    expect(rollbackReasonText(aborted)).toMatch(/^Rolled back by an abort from the console, asked by alice; no alarm/);
    expect(alarmReasonText("dc-a-rollback-5xx", "Abort and roll back, asked from the console by alice")).toBe(
      "set to ALARM by an abort from the console, asked by alice",
    );
  });

  it("leaves another alarm's reason as CloudWatch wrote it", () => {
    const reason =
      "Threshold Crossed: 1 out of the last 1 datapoints [3.0 (07/12/26 10:00:00)] was greater than the threshold (0.0)";
    expect(alarmReasonText("dc-a-rollback-5xx", reason)).toBe(reason);
  });
});

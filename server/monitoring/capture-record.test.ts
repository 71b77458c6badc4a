import { describe, expect, it } from "vitest";
import { decisionKind, readCaptureRecord } from "./capture-record.ts";

const options = [{ id: "billing" }, { id: "tech" }];
const result = (id: string, probabilities: number[]) => ({ id, option_ids: ["billing", "tech"], probabilities });

function record(input: unknown, output: unknown, encoding: "JSON" | "BASE64" = "JSON") {
  const data = (value: unknown) =>
    encoding === "JSON" ? JSON.stringify(value) : Buffer.from(JSON.stringify(value)).toString("base64");
  return JSON.stringify({
    captureData: {
      endpointInput: { observedContentType: "application/json", mode: "INPUT", data: data(input), encoding },
      endpointOutput: { observedContentType: "application/json", mode: "OUTPUT", data: data(output), encoding },
    },
    eventMetadata: { eventId: "e-1", inferenceId: "i-1", inferenceTime: "2026-12-04T02:00:00.000Z" },
    eventVersion: "0",
  });
}

describe("reading a capture record", () => {
  it("reads a single decision: kind, chosen option, top probability, latency", () => {
    const reading = readCaptureRecord(
      record(
        { decision: { id: "d1", state: "s", question: "Who?", options } },
        { result: result("d1", [0.3, 0.7]), timing: { total_seconds: 0.25 } },
      ),
    );
    expect(reading).toEqual({
      ok: true,
      decisions: [
        {
          at: new Date("2026-12-04T02:00:00.000Z"),
          eventId: "e-1",
          inferenceId: "i-1",
          item: 0,
          inputKey: expect.stringMatching(/^[0-9a-f]{32}$/),
          decisionId: "d1",
          kind: decisionKind("Who?", ["billing", "tech"]),
          question: "Who?",
          options: ["billing", "tech"],
          chosen: "tech",
          topProbability: 0.7,
          probabilities: [0.3, 0.7],
          latencyMs: 250,
        },
      ],
    });
  });

  it("reads every decision of a shared-state request, base64 too", () => {
    const reading = readCaptureRecord(
      record(
        {
          decisions: [
            { id: "a", state: "s", question: "Who?", options },
            { id: "b", state: "s", question: "Who?", options },
          ],
        },
        { results: [result("a", [0.9, 0.1]), result("b", [0.2, 0.8])], timing: { total_seconds: 1 } },
        "BASE64",
      ),
    );
    expect(reading.ok && reading.decisions.map((decision) => [decision.item, decision.chosen])).toEqual([
      [0, "billing"],
      [1, "tech"],
    ]);
  });

  it("says why a record is not a decision answer", () => {
    expect(readCaptureRecord("{")).toEqual({ ok: false, why: "not JSON" });
    expect(readCaptureRecord(record({ messages: [] }, { choices: [] }))).toEqual({
      ok: false,
      why: "not a decision answer",
    });
    expect(
      readCaptureRecord(record({ decision: { id: "d", question: "Q", options } }, { error: { message: "x" } })),
    ).toEqual({ ok: false, why: "not a decision answer" });
  });

  it("refuses probabilities that are not a distribution: out of [0, 1], or not summing to about 1", () => {
    const reading = (probabilities: number[]) =>
      readCaptureRecord(
        record({ decision: { id: "d", question: "Q", options } }, { result: result("d", probabilities) }),
      );
    const refused = { ok: false, why: "probabilities that are not a distribution (each in [0, 1], summing to 1)" };
    expect(reading([-5, 1e308])).toEqual(refused);
    expect(reading([-0.5, 1.5])).toEqual(refused);
    expect(reading([0.5, 0.6])).toEqual(refused);
    expect(reading([0.1, 0.1])).toEqual(refused);
    expect(reading([0.3000001, 0.6999998]).ok).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { readGroundTruthRecord } from "./ground-truth-record.ts";

const record = (groundTruthData: unknown, eventId: unknown = "inf-1", eventVersion: unknown = "0") =>
  JSON.stringify({ groundTruthData, eventMetadata: { eventId }, eventVersion });

describe("a ground-truth record", () => {
  it("reads a CSV label as its text, matched by eventId", () => {
    expect(readGroundTruthRecord(record({ data: "billing", encoding: "CSV" }))).toEqual({
      ok: true,
      inferenceId: "inf-1",
      label: "billing",
    });
  });

  it("reads a JSON label as the string (or number) it encodes", () => {
    expect(readGroundTruthRecord(record({ data: '"refund"', encoding: "JSON" }))).toMatchObject({ label: "refund" });
    expect(readGroundTruthRecord(record({ data: "1", encoding: "JSON" }))).toMatchObject({ label: "1" });
  });

  it("refuses a JSON label that is not a string or a number", () => {
    expect(readGroundTruthRecord(record({ data: '{"a":1}', encoding: "JSON" }))).toEqual({
      ok: false,
      why: 'groundTruthData.data is not a label in encoding "JSON" (CSV or JSON)',
    });
  });

  it("refuses a record without an eventId, of another eventVersion, or not JSON", () => {
    expect(readGroundTruthRecord(record({ data: "a", encoding: "CSV" }, ""))).toMatchObject({ ok: false });
    expect(readGroundTruthRecord(record({ data: "a", encoding: "CSV" }, "x", "1"))).toEqual({
      ok: false,
      why: 'eventVersion "1" is not "0"',
    });
    expect(readGroundTruthRecord("{")).toEqual({ ok: false, why: "not JSON" });
  });
});

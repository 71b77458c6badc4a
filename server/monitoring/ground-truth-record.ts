/**
 * One record of SageMaker Model Monitor's ground-truth files, as "Ingest Ground Truth labels and merge them with
 * predictions" gives it: `{"groundTruthData": {"data": "1", "encoding": "CSV"}, "eventMetadata": {"eventId":
 * "aaaa-bbbb-cccc"}, "eventVersion": "0"}`, where "If `inferenceId` is present in captured data records, Model
 * Monitor uses it to merge captured data with Ground Truth records". `data` is the label: the text itself for CSV,
 * a JSON string (or number) for JSON.
 */
export type GroundTruthRecordReading = { ok: true; inferenceId: string; label: string } | { ok: false; why: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function labelOf(data: string, encoding: unknown): string | null {
  if (encoding === "CSV") return data.trim();
  if (encoding !== "JSON") return null;
  try {
    const value: unknown = JSON.parse(data);
    if (typeof value === "string") return value;
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
    return null;
  } catch {
    return null;
  }
}

export function readGroundTruthRecord(line: string): GroundTruthRecordReading {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return { ok: false, why: "not JSON" };
  }
  if (!isObject(record) || !isObject(record.groundTruthData) || !isObject(record.eventMetadata)) {
    return { ok: false, why: "not a ground-truth record (groundTruthData and eventMetadata)" };
  }
  if (record.eventVersion !== "0")
    return { ok: false, why: `eventVersion ${JSON.stringify(record.eventVersion)} is not "0"` };
  const { eventId } = record.eventMetadata;
  if (typeof eventId !== "string" || eventId === "") return { ok: false, why: "eventMetadata.eventId is missing" };
  const { data, encoding } = record.groundTruthData;
  if (typeof data !== "string") return { ok: false, why: "groundTruthData.data is not a string" };
  const label = labelOf(data, encoding);
  if (label === null || label === "") {
    return {
      ok: false,
      why: `groundTruthData.data is not a label in encoding ${JSON.stringify(encoding)} (CSV or JSON)`,
    };
  }
  return { ok: true, inferenceId: eventId, label };
}

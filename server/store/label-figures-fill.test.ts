import { sql } from "kysely";
import { expect, it } from "vitest";
import { describeOnEmptyDatabases } from "../../tests/support/store/test-stores.ts";
import { labelFigures } from "../monitoring/label-figures.ts";
import { migrations } from "./migrations.ts";

const before65 = migrations.filter((migration) => migration.version < 65);
const ENDPOINT = "dc-labelled";
const OPTIONS = ["yes", "no", "maybe"];

describeOnEmptyDatabases("migration 65, label figures", (current) => {
  it("gives the labels stored before it their figures, from their kinds' options", async () => {
    const older = current().open(before65);
    await older
      .insertInto("decision_kinds")
      .values({ endpoint_name: ENDPOINT, kind: "k", question: "Refund?", options: JSON.stringify(OPTIONS) })
      .execute();
    // More labels than one read of the fill holds, so it walks on from where it stopped.
    const stored = Array.from({ length: 5003 }, (_, i) => {
      const top = 0.4 + (i % 50) / 100;
      const probabilities = i % 1000 === 7 ? [1] : [top, (1 - top) / 2, (1 - top) / 2];
      return {
        endpoint_name: ENDPOINT,
        object_key: `data-capture/${ENDPOINT}/AllTraffic/${String(i % 3).padStart(2, "0")}.jsonl`,
        line: i,
        item: i % 2,
        inference_id: `inf-${i}`,
        variant: "AllTraffic",
        kind: i % 1000 === 11 ? "unknown-kind" : "k",
        at_ms: 1_000_000 + i,
        chosen: "yes",
        probabilities: JSON.stringify(probabilities),
        label: OPTIONS[i % 3] ?? "",
        labelled_at_ms: 1_000_000 + i * 2,
        source: "api:ann",
      };
    });
    for (let start = 0; start < stored.length; start += 500) {
      await sql`INSERT INTO ground_truth_labels (endpoint_name, object_key, line, item, inference_id, variant, kind, at_ms, chosen, probabilities, label, labelled_at_ms, source) VALUES ${sql.join(
        stored
          .slice(start, start + 500)
          .map(
            (row) =>
              sql`(${row.endpoint_name}, ${row.object_key}, ${row.line}, ${row.item}, ${row.inference_id}, ${row.variant}, ${row.kind}, ${row.at_ms}, ${row.chosen}, ${row.probabilities}, ${row.label}, ${row.labelled_at_ms}, ${row.source})`,
          ),
      )}`.execute(older);
    }
    const store = current().open();
    const rows = await store
      .selectFrom("ground_truth_labels")
      .select(["line", "top_probability", "correct", "brier", "confidence_bin", "delay_ms", "decided_hour"])
      .orderBy("line")
      .execute();
    expect(rows).toHaveLength(stored.length);
    rows.forEach((row, i) => {
      const label = stored[i]!;
      const expected = labelFigures({
        options: label.kind === "k" ? OPTIONS : [],
        probabilities: JSON.parse(label.probabilities),
        label: label.label,
        atMs: label.at_ms,
        labelledAtMs: label.labelled_at_ms,
      });
      expect({ ...row, delay_ms: Number(row.delay_ms), decided_hour: Number(row.decided_hour) }).toEqual({
        line: label.line,
        ...expected,
      });
    });
    expect(rows.filter((row) => row.correct === 1).length).toBeGreaterThan(1000);
    expect(rows.filter((row) => row.brier === null)).toHaveLength(10);
  });
});

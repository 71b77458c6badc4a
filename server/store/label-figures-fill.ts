import type { Kysely } from "kysely";
import { type LabelFigures, labelFigures } from "../monitoring/label-figures.ts";
import type { MigrationDatabase } from "./migration-dialects.ts";

/** The columns migration 65 reads and writes, as they are at that migration. */
interface LabelTables {
  ground_truth_labels: {
    endpoint_name: string;
    object_key: string;
    line: number;
    item: number;
    kind: string;
    at_ms: number;
    probabilities: string;
    label: string;
    labelled_at_ms: number;
  } & LabelFigures;
  decision_kinds: { endpoint_name: string; kind: string; options: string };
}

const ROWS_PER_READ = 5000;

/** Migration 65's step for labels stored before it: each one's figures from its decision's kind's options. */
export async function fillLabelFigures(migrating: MigrationDatabase): Promise<void> {
  const db = migrating as unknown as Kysely<LabelTables>;
  let after: { endpoint_name: string; object_key: string; line: number; item: number } | null = null;
  for (;;) {
    const rows = await db
      .selectFrom("ground_truth_labels as l")
      .leftJoin("decision_kinds as k", (join) =>
        join.onRef("k.endpoint_name", "=", "l.endpoint_name").onRef("k.kind", "=", "l.kind"),
      )
      .select([
        "l.endpoint_name",
        "l.object_key",
        "l.line",
        "l.item",
        "l.at_ms",
        "l.probabilities",
        "l.label",
        "l.labelled_at_ms",
        "k.options",
      ])
      .$if(after !== null, (query) => {
        const { endpoint_name, object_key, line, item } = after!;
        return query.where((eb) =>
          eb(
            eb.refTuple("l.endpoint_name", "l.object_key", "l.line", "l.item"),
            ">",
            eb.tuple(endpoint_name, object_key, line, item),
          ),
        );
      })
      .orderBy("l.endpoint_name")
      .orderBy("l.object_key")
      .orderBy("l.line")
      .orderBy("l.item")
      .limit(ROWS_PER_READ)
      .execute();
    for (const row of rows) {
      const figures = labelFigures({
        options: row.options ? (JSON.parse(row.options) as string[]) : [],
        probabilities: JSON.parse(row.probabilities) as number[],
        label: row.label,
        atMs: Number(row.at_ms),
        labelledAtMs: Number(row.labelled_at_ms),
      });
      await db
        .updateTable("ground_truth_labels")
        .set(figures)
        .where("endpoint_name", "=", row.endpoint_name)
        .where("object_key", "=", row.object_key)
        .where("line", "=", row.line)
        .where("item", "=", row.item)
        .execute();
    }
    const last = rows.at(-1);
    if (!last || rows.length < ROWS_PER_READ) return;
    after = last;
  }
}

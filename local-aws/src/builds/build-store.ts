import type { BuildPhaseType, EnvironmentVariableType, SourceType } from "@aws-sdk/client-codebuild";
import type { Db } from "../database.ts";

export type BuildStatus = "IN_PROGRESS" | "SUCCEEDED" | "FAILED" | "FAULT" | "STOPPED" | "TIMED_OUT";

export interface BuildPhase {
  phaseType: BuildPhaseType;
  phaseStatus?: BuildStatus;
  startTime: number;
  endTime?: number;
  durationInSeconds?: number;
  contexts?: { statusCode: string; message: string }[];
}

/** A build's source as BatchGetBuilds answers it (ProjectSource): the StartBuild override or the project's. */
export interface BuildRecordSource {
  type: SourceType;
  location: string;
  buildspec: string;
}

export interface BuildRecord {
  id: string;
  project: string;
  /** Null for builds recorded before local CodeBuild kept their source. */
  source: BuildRecordSource | null;
  number: number;
  status: BuildStatus;
  currentPhase: BuildPhaseType;
  phases: BuildPhase[];
  environment: { name: string; value: string; type: EnvironmentVariableType }[];
  exported: { name: string; value: string }[];
  startedAt: number;
  endedAt: number | null;
}

interface BuildRow {
  id: string;
  project: string;
  number: number;
  status: BuildStatus;
  current_phase: string;
  phases: string;
  environment: string;
  exported: string;
  started_at: number;
  ended_at: number | null;
  source: string | null;
}

/** Local CodeBuild builds as rows: the phase timeline and exported variables as JSON. */
export class BuildStore {
  constructor(private readonly db: Db) {}

  nextNumber(project: string): number {
    const row = this.db.prepare("SELECT MAX(number) AS n FROM cb_builds WHERE project = ?").get(project) as {
      n: number | null;
    };
    return (row.n ?? 0) + 1;
  }

  insert(build: BuildRecord) {
    this.db
      .prepare(
        `INSERT INTO cb_builds (id, project, number, status, current_phase, phases, environment, exported, started_at, ended_at, source)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        build.id,
        build.project,
        build.number,
        build.status,
        build.currentPhase,
        JSON.stringify(build.phases),
        JSON.stringify(build.environment),
        JSON.stringify(build.exported),
        build.startedAt,
        build.endedAt,
        build.source === null ? null : JSON.stringify(build.source),
      );
  }

  save(build: BuildRecord) {
    this.db
      .prepare(
        "UPDATE cb_builds SET status = ?, current_phase = ?, phases = ?, exported = ?, ended_at = ? WHERE id = ?",
      )
      .run(
        build.status,
        build.currentPhase,
        JSON.stringify(build.phases),
        JSON.stringify(build.exported),
        build.endedAt,
        build.id,
      );
  }

  get(id: string): BuildRecord | undefined {
    const row = this.db.prepare("SELECT * FROM cb_builds WHERE id = ?").get(id) as BuildRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  ids(project: string | null, ascending: boolean): string[] {
    return (
      this.db
        .prepare(
          `SELECT id FROM cb_builds WHERE ? IS NULL OR project = ? ORDER BY started_at ${ascending ? "ASC" : "DESC"}, number ${ascending ? "ASC" : "DESC"}`,
        )
        .all(project, project) as { id: string }[]
    ).map((row) => row.id);
  }

  inProgress(): BuildRecord[] {
    return (this.db.prepare("SELECT * FROM cb_builds WHERE status = 'IN_PROGRESS'").all() as BuildRow[]).map(toRecord);
  }
}

function toRecord(row: BuildRow): BuildRecord {
  return {
    id: row.id,
    project: row.project,
    number: row.number,
    status: row.status,
    currentPhase: row.current_phase as BuildPhaseType,
    phases: JSON.parse(row.phases) as BuildPhase[],
    environment: JSON.parse(row.environment) as BuildRecord["environment"],
    exported: JSON.parse(row.exported) as BuildRecord["exported"],
    startedAt: row.started_at,
    endedAt: row.ended_at,
    source: row.source === null ? null : (JSON.parse(row.source) as BuildRecordSource),
  };
}

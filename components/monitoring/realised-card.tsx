"use client";

import Link from "next/link";
import { useState } from "react";
import type { EvaluationBasis } from "@/contract/endpoints/evaluation-link.ts";
import type { GroundTruthImportResult } from "@/contract/endpoints/ground-truth.ts";
import {
  type RealisedKind,
  type RealisedWindow,
  type Recalibration,
  realisedWindows,
} from "@/contract/endpoints/realised-quality.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { LineChart } from "../charts/line-chart.tsx";
import { ReliabilityDiagram } from "../evaluate/reliability-diagram.tsx";
import { Button, buttonClasses } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { TextAreaField, TextField } from "../ui/field.tsx";
import { timestampText } from "../ui/timestamp.tsx";
import { accuracyPoints, accuracyText, delayText, labelRowsOf } from "./realised-figures.ts";
import { useImportGroundTruth, useRealisedQuality, useRecordGroundTruth } from "./realised-queries.ts";

const windowIds = Object.keys(realisedWindows) as RealisedWindow[];
/** Kinds shown: the most labelled first. */
const KINDS_SHOWN = 5;

/**
 * Realised quality: labels learnt later (sent here, read from Model Monitor's ground-truth files, or given in the
 * review queue) against what the endpoint decided, beside what its evaluation measured, and a temperature fitted on
 * them when it would improve held-out labels.
 */
export function RealisedCard({ name }: { name: string }) {
  const [windowId, setWindowId] = useState<RealisedWindow>("7d");
  const realised = useRealisedQuality(name, windowId);
  const data = realised.data;
  return (
    <Card title="Realised quality">
      <div className="flex flex-col gap-4" data-testid="realised-quality">
        <fieldset className="flex flex-wrap items-center gap-1">
          <legend className="mb-1 text-sm font-medium text-slate-800">Decisions made in the last</legend>
          {windowIds.map((id) => (
            <Button
              key={id}
              type="button"
              size="sm"
              variant={id === windowId ? "primary" : "secondary"}
              aria-pressed={id === windowId}
              onClick={() => setWindowId(id)}
            >
              {id}
            </Button>
          ))}
        </fieldset>
        {realised.error && <ErrorAlert error={realised.error} title="Realised quality could not be read" />}
        {data?.kinds.every((kind) => kind.labelled === 0) && (
          <p className="text-sm text-slate-700">No labels for this window yet: send some below.</p>
        )}
        {data?.kinds
          .filter((kind) => kind.labelled > 0)
          .slice(0, KINDS_SHOWN)
          .map((kind) => (
            <RealisedKindFigures
              key={kind.kind}
              kind={kind}
              threshold={data.threshold}
              minLabels={data.minLabelsForAlarm}
              window={{ from: data.from, to: data.to }}
            />
          ))}
        {data?.recalibration && <RecalibrationOffer name={name} recalibration={data.recalibration} />}
        <LabelForms name={name} />
      </div>
    </Card>
  );
}

/** Why the realised figures stand beside this evaluation: what the endpoint was deployed, promoted or updated with. */
const basisWords: Record<EvaluationBasis["why"], string> = {
  deployed: "Deployed with",
  promoted: "Promoted with",
  updated: "Updated to a version with",
  chosen: "Compared, as chosen, with",
  "drift baseline": "The drift baseline's",
};

function RealisedKindFigures({
  kind,
  threshold,
  minLabels,
  window,
}: {
  kind: RealisedKind;
  threshold: number;
  minLabels: number;
  window: { from: string; to: string };
}) {
  const evaluation = kind.evaluation;
  const alarmTone = kind.alarm.state === "ALARM" ? "text-red-700" : "text-slate-700";
  return (
    <section aria-label={`Realised quality of ${kind.question}`} data-kind={kind.kind} className="flex flex-col gap-2">
      <h3 className="text-sm font-semibold text-slate-900">{kind.question}</h3>
      {evaluation && (
        <p className="text-xs text-slate-700" data-testid="realised-evaluation-basis">
          {basisWords[evaluation.basis.why]} evaluation run {evaluation.runId} on {timestampText(evaluation.basis.at)}{" "}
          by {evaluation.basis.by}
        </p>
      )}
      <dl className="grid grid-cols-[max-content_1fr_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-700" />
        <dd className="font-medium text-slate-800">Realised</dd>
        <dd className="font-medium text-slate-800">Evaluation{evaluation ? ` (run ${evaluation.runId})` : ""}</dd>
        <dt className="text-slate-700">Labelled</dt>
        <dd className="tabular-nums" data-testid="realised-labelled">
          {kind.labelled} of {kind.decisions}
          {kind.labelledShare === null ? "" : ` (${(kind.labelledShare * 100).toFixed(1)}%)`}
          {kind.labelDelay ? `, label delay p50 ${delayText(kind.labelDelay.p50Seconds)}` : ""}
        </dd>
        <dd />
        <dt className="text-slate-700">Accuracy</dt>
        <dd className="tabular-nums" data-testid="realised-accuracy">
          {accuracyText(kind.accuracy)}
        </dd>
        <dd className="tabular-nums">
          {evaluation ? accuracyText(evaluation.accuracy) : "no evaluation of this kind"}
        </dd>
        <dt className="text-slate-700">At threshold {threshold}</dt>
        <dd className="tabular-nums" data-testid="realised-at-threshold">
          {accuracyText(kind.atThreshold)}
          {kind.coverage === null ? "" : `; coverage ${(kind.coverage * 100).toFixed(1)}%`}
        </dd>
        <dd className="tabular-nums">
          {evaluation
            ? `${accuracyText(evaluation.atThreshold)}${evaluation.coverage === null ? "" : `; coverage ${(evaluation.coverage * 100).toFixed(1)}%`}`
            : ""}
        </dd>
        <dt className="text-slate-700">Brier, ECE</dt>
        <dd className="tabular-nums">
          {kind.brier?.toFixed(3) ?? "–"}, {kind.calibration.ece?.toFixed(3) ?? "–"}
        </dd>
        <dd className="tabular-nums">ECE {evaluation?.ece?.toFixed(3) ?? "–"}</dd>
      </dl>
      <p className={`text-sm ${alarmTone}`} data-testid="realised-alarm">
        Alarm {kind.alarm.state}: {kind.alarm.reason} (it needs {minLabels} labels at the threshold to judge).
      </p>
      <div className="flex flex-wrap gap-4">
        <LineChart
          title="Accuracy at the threshold"
          unit="%"
          points={accuracyPoints(kind)}
          from={window.from}
          to={window.to}
        />
        <ReliabilityDiagram bins={kind.calibration.bins} ece={kind.calibration.ece} title="Realised reliability" />
      </div>
    </section>
  );
}

function RecalibrationOffer({ name, recalibration }: { name: string; recalibration: Recalibration }) {
  const { fit, offeredTemperature, currentTemperature } = recalibration;
  const heldOut = fit.heldOut;
  return (
    <section aria-label="Recalibration from production" className="flex flex-col gap-1 text-sm">
      <h3 className="font-semibold text-slate-900">Temperature from production labels</h3>
      <p className="text-slate-700">
        Served at {currentTemperature}; fitted on {fit.items} labels:{" "}
        {heldOut
          ? `held-out log-loss ${heldOut.logLossBefore.toFixed(3)} → ${heldOut.logLossAfter.toFixed(3)}, ECE ${heldOut.eceBefore?.toFixed(3) ?? "–"} → ${heldOut.eceAfter?.toFixed(3) ?? "–"}.`
          : "too few labels to check it on held-out ones."}
      </p>
      {offeredTemperature === null ? (
        <p className="text-slate-700">Not offered: it does not improve the held-out labels.</p>
      ) : (
        <Link
          className={buttonClasses("secondary", "sm")}
          href={`/endpoints/${encodeURIComponent(name)}?temperature=${offeredTemperature}`}
          data-testid="apply-realised-temperature"
        >
          Update this endpoint with temperature {offeredTemperature}
        </Link>
      )}
    </section>
  );
}

function LabelForms({ name }: { name: string }) {
  const [rowsText, setRowsText] = useState("");
  const [rowsError, setRowsError] = useState<string | null>(null);
  const [prefix, setPrefix] = useState(`ground-truth/${name}/`);
  const record = useRecordGroundTruth(name);
  const read = useImportGroundTruth(name);
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <form
        className="flex flex-col gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          try {
            setRowsError(null);
            record.mutate({ labels: labelRowsOf(rowsText) });
          } catch (error) {
            setRowsError((error as Error).message);
          }
        }}
      >
        <TextAreaField
          label="Labels by inference id"
          hint='JSON Lines: {"inferenceId": "…", "label": "<option id>", "labelledAt": "<ISO time>"}'
          rows={4}
          value={rowsText}
          error={rowsError ?? undefined}
          onChange={(event) => setRowsText(event.target.value)}
        />
        <Button type="submit" size="sm" disabled={record.isPending || rowsText.trim() === ""}>
          Send labels
        </Button>
        {record.error && <ErrorAlert error={record.error} title="The labels were not stored" />}
        {record.data && (
          <p className="text-sm text-slate-700" role="status">
            {record.data.stored} stored, {record.data.unchanged} unchanged.
          </p>
        )}
      </form>
      <form
        className="flex flex-col gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          read.mutate({ prefix });
        }}
      >
        <TextField
          label="Model Monitor ground-truth files"
          hint="A prefix in the artifact bucket under ground-truth/<endpoint>/"
          value={prefix}
          onChange={(event) => setPrefix(event.target.value)}
        />
        <Button type="submit" size="sm" disabled={read.isPending}>
          Read files
        </Button>
        {read.error && <ErrorAlert error={read.error} title="The files could not be read" />}
        {read.data && <ImportSummary result={read.data} />}
      </form>
    </div>
  );
}

function ImportSummary({ result }: { result: GroundTruthImportResult }) {
  return (
    <div className="text-sm text-slate-700" role="status">
      <p>
        {result.records} records in {result.objects} files: {result.stored} stored, {result.unchanged} unchanged,{" "}
        {result.refusedCount} refused.
      </p>
      {result.refused.length > 0 && (
        <ul className="list-disc pl-5">
          {result.refused.slice(0, 5).map((refused) => (
            <li key={`${refused.object}:${refused.row}`}>
              {refused.object} line {refused.row + 1}: {refused.why}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

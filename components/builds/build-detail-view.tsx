"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import type { Build } from "@/contract/builds/builds.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { Badge } from "../ui/badge.tsx";
import { Button, buttonClasses } from "../ui/button.tsx";
import { Card, PageHeader } from "../ui/card.tsx";
import { buildLabel, buildTone, deployHref, failingCommand, phaseDuration } from "./build-format.ts";
import { buildPage, isRunning, useBuild, useBuildLogs, useRetryBuild, useStopBuild } from "./build-queries.ts";

/** The current time, once a second while `ticking`, so a running phase's timer counts up between polls. */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

export function BuildDetailView({ id }: { id: string }) {
  const { data: build, error, isPending } = useBuild(id);
  const running = build ? isRunning(build.status) : false;
  const now = useNow(running);
  const logs = useBuildLogs(id, running);
  if (isPending) return <p className="text-sm text-slate-700">Loading build…</p>;
  if (error || !build) return <ErrorAlert title="Could not load this build" error={error} />;
  const href = deployHref(build);
  return (
    <>
      <PageHeader
        title={buildLabel(build)}
        description={
          <span className="flex items-center gap-2">
            <Badge tone={buildTone(build.status)}>{build.status}</Badge>
            <span className="font-mono text-xs">{build.id}</span>
          </span>
        }
        actions={
          <span className="flex flex-wrap gap-2">
            <BuildControls id={build.id} running={running} retryable={!running && build.status !== "SUCCEEDED"} />
            {href && (
              <Link href={href} className={buttonClasses()}>
                Deploy this
              </Link>
            )}
          </span>
        }
      />
      <div className="grid gap-4 lg:grid-cols-[20rem_minmax(0,1fr)]">
        <div className="flex flex-col gap-4">
          <PhaseTimeline
            build={build}
            running={running}
            now={now}
            logLines={logs.data?.lines.map((line) => line.message) ?? []}
          />
          <Source build={build} />
          <Outputs build={build} />
        </div>
        <LogTail id={build.id} running={isRunning(build.status)} />
      </div>
    </>
  );
}

/**
 * Each phase with its status and time (a running phase's from its start to `now`), and under a failed phase the
 * command that failed with its last output lines from the log (CodeBuild's phase context says only "exit status 1").
 */
export function PhaseTimeline({
  build,
  running,
  now,
  logLines,
}: {
  build: Build;
  running: boolean;
  now: number;
  logLines: readonly string[];
}) {
  const failure = failingCommand(logLines);
  return (
    <Card title="Phases">
      <ol className="flex flex-col gap-2 border-l-2 border-slate-300 pl-4">
        {build.phases.map((phase) => (
          <li key={phase.type} className="relative text-sm">
            <span
              aria-hidden="true"
              className={`absolute -left-[1.4rem] top-1 size-3 rounded-full border-2 border-white ${
                phase.status === "SUCCEEDED"
                  ? "bg-green-600"
                  : (phase.status === null && running) || phase.status === "IN_PROGRESS"
                    ? "bg-blue-600"
                    : phase.status === null
                      ? "bg-slate-400"
                      : "bg-red-600"
              }`}
            />
            <span className="font-medium">{phase.type}</span>{" "}
            {(phase.status || running) && <Badge tone={buildTone(phase.status)}>{phase.status ?? "IN_PROGRESS"}</Badge>}{" "}
            <span className="text-slate-700">{phaseDuration(phase, build, now)}</span>
            {phase.messages.map((message) => (
              <p key={message} className="break-words text-xs text-red-800">
                {message}
              </p>
            ))}
            {failure && phase.status === "FAILED" && failure.phase === phase.type && (
              <div className="mt-1 text-xs" data-testid="failing-command">
                <p className="break-words text-slate-700">
                  <code className="font-mono">{failure.command}</code>{" "}
                  {failure.lastLines.length > 0 ? "ended with:" : "printed nothing before it failed."}
                </p>
                {failure.lastLines.length > 0 && (
                  <pre className="mt-1 whitespace-pre-wrap break-all rounded bg-red-50 p-2 font-mono text-red-900">
                    {failure.lastLines.join("\n")}
                  </pre>
                )}
              </div>
            )}
          </li>
        ))}
      </ol>
    </Card>
  );
}

/** Stop while the build runs; Retry (the same inputs, a new build) once it has ended without succeeding. */
function BuildControls({ id, running, retryable }: { id: string; running: boolean; retryable: boolean }) {
  const stop = useStopBuild(id);
  const retry = useRetryBuild(id);
  const router = useRouter();
  return (
    <>
      {running ? (
        <Button variant="danger" disabled={stop.isPending} onClick={() => stop.mutate()}>
          {stop.isPending ? "Stopping…" : "Stop build"}
        </Button>
      ) : (
        retryable && (
          <Button
            variant="secondary"
            disabled={retry.isPending}
            onClick={() => retry.mutate(undefined, { onSuccess: (next) => router.push(buildPage(next.id)) })}
          >
            {retry.isPending ? "Starting…" : "Retry"}
          </Button>
        )
      )}
      {stop.error && <ErrorAlert title="Could not stop the build" error={stop.error} />}
      {retry.error && <ErrorAlert title="Could not retry the build" error={retry.error} />}
    </>
  );
}

function Source({ build }: { build: Build }) {
  const { source } = build;
  return (
    <Card title="Source">
      {source ? (
        <dl className="flex flex-col gap-1 text-sm">
          <div>
            <dt className="text-slate-700">Type</dt>
            <dd className="font-mono text-xs">{source.type}</dd>
          </div>
          <div>
            <dt className="text-slate-700">Location</dt>
            <dd className="break-all font-mono text-xs">{source.location ?? "—"}</dd>
          </div>
        </dl>
      ) : (
        <p className="text-sm text-slate-700">CodeBuild reported no source.</p>
      )}
    </Card>
  );
}

function Outputs({ build }: { build: Build }) {
  const { outputs } = build;
  const entries: [string, string | null][] = [
    ["Model S3 URI", outputs.modelDataUrl],
    ["Model sha256", outputs.modelSha256],
    ["Image URI", outputs.imageUri],
    ["Image digest", outputs.imageDigest],
  ];
  const present = entries.filter(([, value]) => value);
  return (
    <Card title="Outputs">
      {present.length === 0 ? (
        <p className="text-sm text-slate-700">{isRunning(build.status) ? "Not finished yet." : "No outputs."}</p>
      ) : (
        <dl className="flex flex-col gap-1 text-sm">
          {present.map(([term, value]) => (
            <div key={term}>
              <dt className="text-slate-700">{term}</dt>
              <dd className="break-all font-mono text-xs">{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </Card>
  );
}

function LogTail({ id, running }: { id: string; running: boolean }) {
  const { data, error } = useBuildLogs(id, running);
  const end = useRef<HTMLPreElement>(null);
  const lineCount = data?.lines.length ?? 0;
  useEffect(() => {
    if (lineCount > 0 && end.current) end.current.scrollTop = end.current.scrollHeight;
  }, [lineCount]);
  return (
    <Card title={running ? "Log (live)" : "Log"}>
      {error && <ErrorAlert title="Log unavailable" error={error} />}
      <pre
        ref={end}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable log must be reachable by keyboard
        tabIndex={0}
        role="log"
        aria-label="Build log"
        className="h-96 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-950 p-3 font-mono text-xs leading-5 text-slate-100"
      >
        {data?.lines.map((line) => `${line.timestamp.slice(11, 19)}  ${line.message}`).join("\n") ||
          (running ? "Waiting for log lines…" : "No log lines.")}
      </pre>
    </Card>
  );
}

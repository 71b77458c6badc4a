"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useEndpointMetrics } from "../endpoints/endpoint-activity-queries.ts";
import { useEndpoint, useEndpoints } from "../endpoints/endpoint-queries.ts";
import { metricRange } from "../endpoints/metric-ranges.ts";
import { Alert } from "../ui/alert.tsx";
import { Button } from "../ui/button.tsx";
import { Card, PageHeader } from "../ui/card.tsx";
import { SelectField, TextAreaField } from "../ui/field.tsx";
import { Tabs } from "../ui/tabs.tsx";
import { AnswerView } from "./answer-view.tsx";
import { type AsyncProgress, invokeAsyncAndWait } from "./async-invoke-client.ts";
import { asyncWaitStatus } from "./async-wait.ts";
import { ChatPanel } from "./chat-panel.tsx";
import { type DecisionDraft, draftFromBody } from "./decision-draft.ts";
import { DecisionForm } from "./decision-form.tsx";
import { examples } from "./examples.ts";
import { describeInvokeError, invoke } from "./invoke-client.ts";
import {
  bodyFromDraftAs,
  draftFromBodyOf,
  protocolOfBody,
  type RequestProtocol,
  requestProtocols,
} from "./protocol-body.ts";
import { lastRunShown, requestBodyOf } from "./request-body.ts";
import { SnippetPanel } from "./snippet-panel.tsx";

type Tab = "form" | "json" | "chat";
const tabs: { key: Tab; label: string }[] = [
  { key: "form", label: "Decision form" },
  { key: "json", label: "Raw JSON" },
  { key: "chat", label: "Chat" },
];

const firstExample = examples[0]!;

export function PlaygroundView({ initialEndpoint }: { initialEndpoint?: string }) {
  const endpoints = useEndpoints();
  const [endpoint, setEndpoint] = useState(initialEndpoint ?? "");
  const [tab, setTab] = useState<Tab>("form");
  const [protocol, setProtocol] = useState<RequestProtocol>("decision");
  const [draft, setDraft] = useState<DecisionDraft>(() => draftFromBody(firstExample.body)!);
  const [json, setJson] = useState(() => JSON.stringify(firstExample.body, null, 2));
  const [bodyError, setBodyError] = useState<string | null>(null);
  const inService =
    endpoints.data?.endpoints.filter((candidate) => candidate.managed && candidate.status === "InService") ?? [];
  const chosen = endpoint || inService[0]?.name || "";
  const chosenDetail = useEndpoint(chosen, { enabled: chosen !== "" });
  const asyncInference = chosenDetail.data?.asyncInference ?? null;
  const [progress, setProgress] = useState<AsyncProgress | null>(null);
  const atZero = asyncInference !== null && chosenDetail.data?.instanceCount === 0;
  // The endpoint's scaling activities of the last week: how long its last start from zero took.
  const history = useEndpointMetrics(chosen, metricRange("1w"), { enabled: atZero && progress !== null });
  const waitStatus =
    progress &&
    asyncWaitStatus({
      instanceCount: chosenDetail.data?.instanceCount ?? 1,
      scaleToZero: chosenDetail.data?.autoscaling?.scaleToZero ?? false,
      coldStartSeconds: history.data?.instances[0]?.coldStartSeconds ?? null,
      waitedMs: progress.waitedMs,
    });
  const run = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      asyncInference ? invokeAsyncAndWait(chosen, body, setProgress) : invoke(chosen, body),
    onSettled: () => setProgress(null),
  });

  const request = requestBodyOf(tab === "form" ? "form" : "json", draft, json, { protocol, model: chosen });
  const shown = lastRunShown(bodyError, run);

  /** The form's content in `as`, written to the JSON editor. */
  function writeJson(as: RequestProtocol, from: DecisionDraft) {
    try {
      setJson(JSON.stringify(bodyFromDraftAs(as, from, chosen), null, 2));
    } catch {}
  }

  /** The JSON editor's body as the form and its protocol, where the form can show it. */
  function readJson(): DecisionDraft | null {
    try {
      const fromJson = draftFromBodyOf(JSON.parse(json));
      if (!fromJson?.draft) return null;
      setProtocol(fromJson.protocol);
      setDraft(fromJson.draft);
      return fromJson.draft;
    } catch {
      return null;
    }
  }

  function switchTab(next: Tab) {
    // The form and the JSON are two views of one request: carry edits across.
    if (tab === "form" && next === "json") writeJson(protocol, draft);
    if (tab === "json" && next === "form") readJson();
    setTab(next);
  }

  function chooseProtocol(next: RequestProtocol) {
    // In the JSON editor, the same questions are rewritten in the other protocol when the form can read them.
    if (tab === "json") {
      const current = readJson();
      if (current) writeJson(next, current);
    }
    setProtocol(next);
  }

  function loadExample(key: string) {
    const example = examples.find((candidate) => candidate.key === key);
    if (!example) return;
    const fromExample = draftFromBody(example.body);
    if (fromExample) {
      setDraft(fromExample);
      writeJson(protocol, fromExample);
      if (tab === "chat") setTab("form");
    } else {
      setJson(JSON.stringify(example.body, null, 2));
      setTab("json");
    }
    setBodyError(null);
    run.reset();
  }

  function submit() {
    setBodyError(request.problem);
    if (request.body === null) {
      run.reset();
      return;
    }
    if (!endpoint) setEndpoint(chosen);
    run.mutate(request.body);
  }

  return (
    <>
      <PageHeader
        title="Playground"
        description="Send decisions, systemone or OpenAI decisions questions, or chat, to an endpoint and see the probabilities."
      />
      <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="flex flex-col gap-4">
          <Card>
            <div className="grid gap-3 sm:grid-cols-3">
              <SelectField label="Endpoint" value={chosen} onChange={(e) => setEndpoint(e.target.value)}>
                {inService.length === 0 && (
                  <option value="">{endpoints.isPending ? "Loading…" : "No endpoint is InService"}</option>
                )}
                {endpoint && !inService.some((candidate) => candidate.name === endpoint) && (
                  <option value={endpoint}>{endpoint} (not InService)</option>
                )}
                {inService.map((candidate) => (
                  <option key={candidate.name} value={candidate.name}>
                    {candidate.name} ({candidate.apiMode})
                  </option>
                ))}
              </SelectField>
              <SelectField
                label="Protocol"
                value={protocol}
                disabled={tab === "chat"}
                onChange={(e) => chooseProtocol(e.target.value as RequestProtocol)}
              >
                {requestProtocols.map((candidate) => (
                  <option key={candidate.key} value={candidate.key}>
                    {candidate.label}
                  </option>
                ))}
              </SelectField>
              <SelectField label="Example" value="" onChange={(e) => loadExample(e.target.value)}>
                <option value="">Start from an example…</option>
                {examples.map((example) => (
                  <option key={example.key} value={example.key}>
                    {example.label}
                  </option>
                ))}
              </SelectField>
            </div>
          </Card>
          <Card>
            <Tabs label="Request editor" items={tabs} active={tab} onChange={switchTab}>
              {tab === "chat" ? (
                <ChatPanel endpoint={chosen} />
              ) : (
                <form
                  className="flex flex-col gap-3"
                  onSubmit={(event) => {
                    event.preventDefault();
                    submit();
                  }}
                >
                  {tab === "form" ? (
                    <DecisionForm draft={draft} onChange={setDraft} />
                  ) : (
                    <TextAreaField
                      label="Request JSON"
                      rows={20}
                      spellCheck={false}
                      value={json}
                      onChange={(e) => setJson(e.target.value)}
                      hint="A decision ({decision} or {decisions}), systemone ({state, questions}), OpenAI decisions ({input, questions}) or chat ({messages}) body."
                    />
                  )}
                  {shown.bodyProblem && <Alert title="The request is not valid">{shown.bodyProblem}</Alert>}
                  <div>
                    <Button type="submit" disabled={!chosen || chosenDetail.isPending || run.isPending}>
                      {run.isPending ? "Running…" : "Run"}
                    </Button>
                  </div>
                </form>
              )}
            </Tabs>
          </Card>
        </div>
        <div className="flex flex-col gap-4">
          {progress && waitStatus && (
            <Alert title={waitStatus.title} tone="info">
              <span aria-live="polite">
                Request {progress.inferenceId}: {waitStatus.text} The console polls its output location in S3. Input:{" "}
                {progress.inputLocation}
              </span>
            </Alert>
          )}
          {shown.error && <Alert title="The request failed">{describeInvokeError(shown.error)}</Alert>}
          {shown.data && run.variables && <AnswerView endpoint={chosen} request={run.variables} result={shown.data} />}
          {tab !== "chat" && (
            <Card title="Request snippet">
              <SnippetPanel
                endpoint={chosen}
                body={request.body}
                protocol={request.body && protocolOfBody(request.body)}
                problem={request.problem}
                asyncInference={asyncInference}
              />
            </Card>
          )}
        </div>
      </div>
    </>
  );
}

import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Build, BuildPhase } from "@/contract/builds/builds.ts";
import { apiUrl } from "../api/console-client.ts";
import { PhaseTimeline } from "./build-detail-view.tsx";
import { failingCommand } from "./build-format.ts";

const phase = (type: string, overrides: Partial<BuildPhase> = {}): BuildPhase => ({
  type,
  status: "SUCCEEDED",
  startedAt: "2026-12-01T10:00:00.000Z",
  endedAt: "2026-12-01T10:00:01.000Z",
  durationSeconds: 1,
  messages: [],
  ...overrides,
});

function build(phases: BuildPhase[], status: Build["status"]): Build {
  return {
    id: "dc-model-package:1",
    kind: "model",
    variant: null,
    projectName: "dc-model-package",
    inputs: {},
    status,
    currentPhase: phases.at(-1)?.type ?? null,
    startedAt: "2026-12-01T10:00:00.000Z",
    endedAt: null,
    phases,
    outputs: { modelDataUrl: null, modelSha256: null, modelBytes: null, imageUri: null, imageDigest: null },
    exportedVariables: {},
    logs: { groupName: "g", streamName: "s", tailPath: apiUrl("buildLogs", { params: { id: "x" } }) },
    source: null,
  };
}

/** A model build whose hub host did not resolve, logged as CodeBuild logs it (local mode writes the same lines). */
const hubFailure = [
  "[Container] 2026-12-01 10:00:02.100 Running command npm ci --omit=dev",
  "added 12 packages in 2s",
  "[Container] 2026-12-01 10:00:04.000 Phase complete: INSTALL State: SUCCEEDED",
  "[Container] 2026-12-01 10:00:04.100 Running command node infra/packager/package-model.mjs",
  "Fetching https://hub.example.invalid/owner/model/resolve/abc/model.gguf",
  "",
  "TypeError: fetch failed",
  "    at node:internal/deps/undici/undici:13510:13",
  "  [cause]: Error: getaddrinfo ENOTFOUND hub.example.invalid",
  "    errno: -3008,",
  "    code: 'ENOTFOUND',",
  "    hostname: 'hub.example.invalid'",
  "[Container] 2026-12-01 10:00:05.000 Phase complete: BUILD State: FAILED",
  "[Container] 2026-12-01 10:00:05.000 Phase context status code: COMMAND_EXECUTION_ERROR Message: Error while executing command: node infra/packager/package-model.mjs. Reason: exit status 1",
];

describe("a build's phase summary", () => {
  it("names the failing command and its last error lines under the failed phase", () => {
    const failed = phase("BUILD", {
      status: "FAILED",
      messages: [
        "COMMAND_EXECUTION_ERROR: Error while executing command: node infra/packager/package-model.mjs. Reason: exit status 1",
      ],
    });
    const html = renderToStaticMarkup(
      createElement(PhaseTimeline, {
        build: build([phase("INSTALL"), failed], "FAILED"),
        running: false,
        now: Date.parse("2026-12-01T11:00:00.000Z"),
        logLines: hubFailure,
      }),
    );
    expect(html).toContain('data-testid="failing-command"');
    expect(html).toContain("getaddrinfo ENOTFOUND hub.example.invalid");
    expect(html).toContain("node infra/packager/package-model.mjs");
    expect(failingCommand(hubFailure)).toEqual({
      command: "node infra/packager/package-model.mjs",
      phase: "BUILD",
      lastLines: [
        "TypeError: fetch failed",
        "    at node:internal/deps/undici/undici:13510:13",
        "  [cause]: Error: getaddrinfo ENOTFOUND hub.example.invalid",
        "    errno: -3008,",
        "    code: 'ENOTFOUND',",
        "    hostname: 'hub.example.invalid'",
      ],
    });
  });

  it("shows nothing of the kind for a build that did not fail", () => {
    expect(failingCommand(hubFailure.slice(0, 6))).toBeNull();
  });

  it("times the running phase from its start to now", () => {
    const running = phase("BUILD", { status: null, startedAt: "2026-12-01T10:00:00.000Z", endedAt: null });
    const html = renderToStaticMarkup(
      createElement(PhaseTimeline, {
        build: build([phase("INSTALL"), running], "IN_PROGRESS"),
        running: true,
        now: Date.parse("2026-12-01T10:00:42.000Z"),
        logLines: [],
      }),
    );
    expect(html).toContain("42 s");
  });
});

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { EndpointDetail } from "@/contract/endpoints/endpoint.ts";
import { cpuEndpointDetail } from "@/tests/support/endpoints/endpoint-detail.ts";
import { DeploymentCard } from "./deployment-card.tsx";
import { updateFormStaysOpen } from "./update-form.ts";

const image = `123456789012.dkr.ecr.us-east-1.amazonaws.com/decision-adapter@sha256:${"a".repeat(64)}`;
const base = cpuEndpointDetail(image);

function card(endpoint: EndpointDetail, initial?: { temperature: string }): string {
  const client = new QueryClient();
  return renderToStaticMarkup(
    createElement(QueryClientProvider, { client }, createElement(DeploymentCard, { endpoint, initial })),
  );
}

describe("the Updates card", () => {
  it("keeps Roll back to … beside an open update form", () => {
    const endpoint = { ...base, deployment: { ...base.deployment, previousConfig: "dc-a-1234567" } };
    const html = card(endpoint, { temperature: "0.7" });
    expect(html).toContain('aria-label="Update endpoint"');
    expect(html).toContain("Roll back to dc-a-1234567");
  });

  it("closes the form once an update runs, so it does not reopen by itself when the update ends", () => {
    expect(updateFormStaysOpen(true, "InService")).toBe(true);
    expect(updateFormStaysOpen(true, "Updating")).toBe(false);
    expect(updateFormStaysOpen(false, "InService")).toBe(false);
    expect(card({ ...base, status: "Updating" }, { temperature: "0.7" })).not.toContain('aria-label="Update endpoint"');
  });

  it("offers Abort and roll back while an update bakes under a rollback alarm, and says why not without one", () => {
    const pending = {
      configName: "dc-a-1234567",
      startedAt: "2026-12-02T06:00:00.000Z",
      newFleetShare: 0.5,
      newInstanceCount: 1,
      stages: [{ status: "Baking", message: "Baking period of 600 s.", startedAt: "2026-12-02T06:01:00.000Z" }],
    };
    const alarm = { name: "dc-a-rollback-latency-average", state: "OK", reason: null };
    const updating = { ...base, status: "Updating" as const };
    const watched = card({ ...updating, deployment: { ...base.deployment, pending, alarms: [alarm] } });
    expect(watched).toContain(">Abort and roll back</button>");
    const unwatched = card({ ...updating, deployment: { ...base.deployment, pending } });
    expect(unwatched).not.toContain("Abort and roll back</button>");
    expect(unwatched).toContain("This update watches no rollback alarm, so it cannot be aborted");
  });
});

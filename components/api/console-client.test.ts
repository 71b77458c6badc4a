import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./api-error.ts";
import { api, apiResponse, apiUrl } from "./console-client.ts";

type Sent = { url: string; method?: string; headers?: HeadersInit; body?: BodyInit | null };

function answering(status: number, body: unknown) {
  const sent: Sent[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    sent.push({ url, method: init.method, headers: init.headers, body: init.body });
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  });
  return sent;
}

afterEach(() => vi.unstubAllGlobals());

describe("the console client", () => {
  it("fills a route's path parameters, each encoded, and its query without the values left out", () => {
    expect(apiUrl("asyncOutcome", { params: { name: "dc a/b", inferenceId: "x?y" } })).toBe(
      "/api/endpoints/dc%20a%2Fb/invoke-async/x%3Fy",
    );
    expect(apiUrl("endpointLogs", { params: { name: "dc-a" }, query: { minutes: 15, filterPattern: "" } })).toBe(
      "/api/endpoints/dc-a/logs?minutes=15",
    );
    expect(apiUrl("exportEvaluation", { params: { id: "r1" }, query: { format: "csv" } })).toBe(
      "/api/evaluations/r1/export?format=csv",
    );
  });

  it("sends the route's method and a JSON body, and answers the JSON the route returned", async () => {
    const sent = answering(202, { name: "dc-a", status: "Updating" });
    const answer = await api("scaleEndpoint", { params: { name: "dc-a" }, body: { instanceCount: 2 } });
    expect(answer).toEqual({ name: "dc-a", status: "Updating" });
    expect(sent).toEqual([
      {
        url: "/api/endpoints/dc-a",
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ instanceCount: 2 }),
      },
    ]);
  });

  it("sends form data as it is, with the browser's multipart content type", async () => {
    const sent = answering(201, { id: "d1" });
    const form = new FormData();
    form.set("name", "labelled");
    await api("uploadDataset", { form });
    expect(sent[0]).toMatchObject({ url: "/api/datasets", method: "POST", headers: undefined, body: form });
  });

  it("throws the route's error in words", async () => {
    answering(409, { error: { code: "conflict", message: "dc-a is Creating; wait until it is InService" } });
    const error = await apiResponse("deleteEndpoint", { params: { name: "dc-a" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, message: "dc-a is Creating; wait until it is InService" });
  });
});

import { describe, expect, it } from "vitest";
import { errorFromResponse } from "./api-error.ts";
import { apiUrl } from "./console-client.ts";

const images = apiUrl("images");
const builds = apiUrl("listBuilds");

describe("errors from console routes", () => {
  it("keeps the console's code and message", () => {
    const error = errorFromResponse(409, apiUrl("describeEndpoint", { params: { name: "x" } }), {
      error: { code: "conflict", message: "x is Creating; wait until it is InService" },
    });
    expect([error.status, error.code, error.message]).toEqual([
      409,
      "conflict",
      "x is Creating; wait until it is InService",
    ]);
  });

  it("reads the adapter's plain string errors", () => {
    expect(errorFromResponse(400, "/x", { error: "Decision IDs must be unique" }).message).toBe(
      "Decision IDs must be unique",
    );
  });

  it("says a route is missing when a 404 has no error body", () => {
    expect(errorFromResponse(404, images, undefined).message).toBe(
      `The console has no route ${images} yet (HTTP 404).`,
    );
  });

  it("names the status when the body says nothing", () => {
    expect(errorFromResponse(502, builds, "<html>").message).toBe(`The request to ${builds} failed with HTTP 502.`);
  });
});

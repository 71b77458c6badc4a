import { describe, expect, it } from "vitest";
import { errorFromResponse } from "./api-error.ts";

describe("errors from console routes", () => {
  it("keeps the console's code and message", () => {
    const error = errorFromResponse(409, "/api/endpoints/x", {
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
    expect(errorFromResponse(404, "/api/images", undefined).message).toBe(
      "The console has no route /api/images yet (HTTP 404).",
    );
  });

  it("names the status when the body says nothing", () => {
    expect(errorFromResponse(502, "/api/builds", "<html>").message).toBe(
      "The request to /api/builds failed with HTTP 502.",
    );
  });
});

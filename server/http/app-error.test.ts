import { describe, expect, it, vi } from "vitest";
import { ContainerError } from "../invoke/container-error.ts";
import { AppError, isAppError } from "./app-error.ts";
import { route } from "./route.ts";

/** Security issue 25, item 8: an AppError thrown by another bundle's copy of app-error.ts is still an AppError. */
async function otherCopy(): Promise<typeof import("./app-error.ts")> {
  vi.resetModules();
  return import("./app-error.ts");
}

describe("AppError across copies of its module", () => {
  it("is recognised by brand, so route() answers its status and message, not a 500", async () => {
    const { AppError: OtherAppError } = await otherCopy();
    expect(OtherAppError).not.toBe(AppError);
    const thrown = new OtherAppError("not_found", "There is no endpoint dc-x.");
    expect(thrown instanceof AppError).toBe(true);
    expect(isAppError(thrown)).toBe(true);
    const response = await route(async () => {
      throw thrown;
    })(new Request("http://127.0.0.1/api/x"));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: "not_found", message: "There is no endpoint dc-x." } });
  });

  it("is not claimed by a plain Error, an imitation or a subclass it is not", () => {
    expect(new Error("x") instanceof AppError).toBe(false);
    expect({ code: "not_found", status: 404, message: "x" } instanceof AppError).toBe(false);
    expect(new AppError("conflict", "x") instanceof ContainerError).toBe(false);
    expect(new ContainerError({ OriginalStatusCode: 400, OriginalMessage: "no" }, 0) instanceof AppError).toBe(true);
  });
});

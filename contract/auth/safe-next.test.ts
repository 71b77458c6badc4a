import { describe, expect, it } from "vitest";
import { safeNext } from "./safe-next.ts";

/** Issue 12, Medium 5: `next=/%09/evil.example` (and its newline and backslash variants) survived the old check. */
const origin = "http://127.0.0.1:3000";

describe("safeNext: where the browser goes after sign-in", () => {
  it.each([
    ["/%09/evil.example as the query parameter decodes it", new URLSearchParams("next=/%09/evil.example").get("next")],
    ["a tab", "/\t/evil.example"],
    ["a newline", "/\n/evil.example"],
    ["a carriage return", "/\r/evil.example"],
    ["a backslash", "/\\evil.example"],
    ["a tab before a backslash", "/\t\\evil.example"],
    ["a protocol-relative URL", "//evil.example/x"],
    ["a dot segment that collapses to //", "/.//evil.example"],
    ["a parent segment that collapses to //", "/..//evil.example"],
    ["an absolute URL elsewhere", "https://evil.example/"],
    ["another port of the same host", "http://127.0.0.1:3001/endpoints"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["nothing", null],
  ])("refuses %s", (_, next) => {
    expect(safeNext(next, origin)).toBe("/");
    expect(safeNext(next, origin, "/endpoints")).toBe("/endpoints");
  });

  it.each([
    ["/endpoints", "/endpoints"],
    ["/endpoints/dc-a?tab=metrics#latency", "/endpoints/dc-a?tab=metrics#latency"],
    ["/%09/kept-as-text", "/%09/kept-as-text"],
    [`${origin}/builds`, "/builds"],
    ["/a/../evaluations", "/evaluations"],
  ])("keeps the same-origin path %j as %j", (next, expected) => {
    expect(safeNext(next, origin)).toBe(expected);
  });
});

import { describe, expect, it } from "vitest";
import type { StructureShape } from "./input-shapes.ts";
import { bindRestInput, type RestBindings, restInput } from "./rest-binding.ts";

const shape: StructureShape = {
  type: "structure",
  required: ["Name"],
  members: {
    Name: { type: "string", min: 3 },
    Limit: { type: "integer", max: 100 },
    Ratio: { type: "float" },
    Fetch: { type: "boolean" },
    Since: { type: "timestamp" },
    Until: { type: "timestamp" },
    Fields: { type: "list", member: { type: "string" } },
    Ids: { type: "list", member: { type: "integer" } },
    Labels: { type: "map", key: { type: "string" }, value: { type: "string" } },
    Body: { type: "blob", max: 4 },
  },
};
const bindings: RestBindings = {
  payload: "Body",
  members: {
    Name: { location: "uri", name: "Name" },
    Limit: { location: "querystring", name: "max-things" },
    Ratio: { location: "querystring", name: "ratio" },
    Fetch: { location: "querystring", name: "fetch" },
    Since: { location: "header", name: "X-Since" },
    Until: { location: "querystring", name: "until" },
    Fields: { location: "header", name: "x-fields" },
    Ids: { location: "querystring", name: "id" },
    Labels: { location: "headers", name: "x-label-" },
  },
};

const bind = (query: string, headers: Record<string, string> = {}, labels: Record<string, string> = { Name: "abc" }) =>
  bindRestInput(shape, bindings, { labels, query: new URLSearchParams(query), headers });

describe("bindRestInput", () => {
  it("reads each member from its URI label, query parameter or header, as its type", () => {
    expect(
      bind("max-things=7&ratio=0.5&fetch=true&until=2026-01-02T03:04:05Z&id=1&id=2", {
        "x-since": "Fri, 02 Jan 2026 03:04:05 GMT",
        "x-fields": "a, b",
        "x-label-team": "ml",
        "x-other": "x",
      }),
    ).toEqual({
      Name: "abc",
      Limit: 7,
      Ratio: 0.5,
      Fetch: true,
      Since: new Date("2026-01-02T03:04:05Z"),
      Until: new Date("2026-01-02T03:04:05Z"),
      Fields: ["a", "b"],
      Ids: [1, 2],
      Labels: { team: "ml" },
    });
  });

  it("leaves a value that is not of its type as text, for the shape to refuse; an empty header is absent", () => {
    expect(bind("max-things=7.5&fetch=yes", { "x-fields": "" })).toEqual({
      Name: "abc",
      Limit: "7.5",
      Fetch: "yes",
    });
    expect(bind("max-things=99999999999999999999").Limit).toBe("99999999999999999999");
  });

  it("refuses a timestamp not in its location's format (a header's is RFC 822) as a type error", () => {
    expect(() => bind("", { "x-since": "2026-01-02T03:04:05Z" })).toThrow(
      "Unexpected value at 'since': expected a timestamp",
    );
    expect(() => bind("until=yesterday")).toThrow("Unexpected value at 'until': expected a timestamp");
  });
});

describe("restInput", () => {
  const input = (query: string, payload?: Buffer, labels?: Record<string, string>) =>
    restInput(shape, bindings, {
      labels: labels ?? { Name: "abc" },
      query: new URLSearchParams(query),
      headers: {},
      payload,
    });

  it("checks the bound input and its payload against the shape", () => {
    expect(input("max-things=5", Buffer.from("abcd"))).toEqual({ Name: "abc", Limit: 5, Body: Buffer.from("abcd") });
    expect(() => input("max-things=101")).toThrow(
      "1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100",
    );
    expect(() => input("", Buffer.from("abcde"), {})).toThrow("2 validation errors detected");
    expect(() => input("max-things=many")).toThrow("Unexpected value at 'limit': expected an integer");
  });
});

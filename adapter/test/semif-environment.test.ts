import { describe, expect, it } from "vitest";
import { readSemifEnvironment, semifDefaults, semifVariables } from "../src/contract/index.ts";
import { readConfig } from "../src/engine/config.ts";

describe("the SEMIF_* environment", () => {
  it("takes SemIf's defaults when a variable is unset or empty", () => {
    expect(readSemifEnvironment({ SEMIF_MAX_TOKENS: "" })).toEqual({
      maxTokens: 4096,
      maxRequestTokens: 8192,
      maxSharedDecisions: 8,
      maxBodyBytes: 262144,
      maxInFlight: 1,
      temperature: 1,
    });
    expect(readSemifEnvironment({})).toEqual(semifDefaults);
  });

  it("reads each variable by its SemIf name", () => {
    const env = Object.fromEntries(Object.values(semifVariables).map((name, i) => [name, String(i + 2)]));
    expect(readSemifEnvironment(env)).toEqual({
      maxTokens: 2,
      maxRequestTokens: 3,
      maxSharedDecisions: 4,
      maxBodyBytes: 5,
      maxInFlight: 6,
      temperature: 7,
    });
  });

  it("names the variable and the value it refuses", () => {
    expect(() => readSemifEnvironment({ SEMIF_MAX_SHARED_DECISIONS: "1.5" })).toThrow(
      'SEMIF_MAX_SHARED_DECISIONS must be a positive integer, got "1.5"',
    );
    expect(() => readSemifEnvironment({ SEMIF_MAX_TOKENS: "lots" })).toThrow(
      'SEMIF_MAX_TOKENS must be a positive integer, got "lots"',
    );
    expect(() => readSemifEnvironment({ SEMIF_TEMPERATURE: "-1" })).toThrow(
      'SEMIF_TEMPERATURE must be a positive number, got "-1"',
    );
    expect(readSemifEnvironment({ SEMIF_TEMPERATURE: "0.7" }).temperature).toBe(0.7);
  });

  it("is what the adapter's settings hold", () => {
    expect(readConfig({ SEMIF_MAX_BODY_BYTES: "1024", SEMIF_MAX_IN_FLIGHT: "3" })).toMatchObject({
      maxBodyBytes: 1024,
      maxInFlight: 3,
      maxTokens: 4096,
    });
  });
});

import { describe, expect, it } from "vitest";
import { reviewKeyChoice } from "./review-queue-keys.ts";

const press = (
  key: string,
  more: Partial<{ altKey: boolean; ctrlKey: boolean; metaKey: boolean; inField: boolean }> = {},
) => ({
  key,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  inField: false,
  ...more,
});

describe("the review queue's keys", () => {
  const options = ["p1", "p2", "p3"];

  it("give option N for key N and skip for s", () => {
    expect(reviewKeyChoice(press("1"), options)).toEqual({ label: "p1" });
    expect(reviewKeyChoice(press("3"), options)).toEqual({ label: "p3" });
    expect(reviewKeyChoice(press("s"), options)).toEqual({ skip: true });
    expect(reviewKeyChoice(press("S"), options)).toEqual({ skip: true });
  });

  it("ignore a number past the options, other keys, modifiers and typing in a field", () => {
    expect(reviewKeyChoice(press("4"), options)).toBeNull();
    expect(reviewKeyChoice(press("0"), options)).toBeNull();
    expect(reviewKeyChoice(press("x"), options)).toBeNull();
    expect(reviewKeyChoice(press("1", { ctrlKey: true }), options)).toBeNull();
    expect(reviewKeyChoice(press("s", { metaKey: true }), options)).toBeNull();
    expect(reviewKeyChoice(press("2", { inField: true }), options)).toBeNull();
  });
});

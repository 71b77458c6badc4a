import { describe, expect, it } from "vitest";
import { csvField, csvText } from "./csv-field.ts";

describe("csvField", () => {
  it("quotes a cell holding a semicolon, the separator of comma-decimal locales", () => {
    expect(csvField("a;b")).toBe('"a;b"');
  });

  it("puts a ' before a formula that starts after a ; or a , inside the cell", () => {
    expect(csvField("x;=1+1")).toBe(`"x;'=1+1"`);
    expect(csvField("x,@SUM(A1)")).toBe(`"x,'@SUM(A1)"`);
    expect(csvField("x; -1")).toBe('"x; -1"');
  });

  it("escapes formulas after separators inside a list's text items, and leaves its numbers as they are", () => {
    expect(csvField(["a;=b", "c"])).toBe(`"[""a;'=b"",""c""]"`);
    expect(csvField([-1.5, -2])).toBe('"[-1.5,-2]"');
  });

  it("writes numbers and booleans as they are, even negative ones", () => {
    expect(csvText([[-3, true, null]])).toBe("-3,true,\r\n");
  });
});

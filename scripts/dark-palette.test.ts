import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { darkPaletteCss, darkPaletteFile, tailwindPalette, tailwindTheme } from "./dark-palette.ts";

const themeCss = fs.readFileSync(tailwindTheme, "utf8");

describe("the dark colour scheme", () => {
  it("is Tailwind's installed palette turned over, as scripts/dark-palette.ts writes it", () => {
    expect(fs.readFileSync(darkPaletteFile, "utf8")).toBe(darkPaletteCss(themeCss));
  });

  it("gives every shade its mirror's value, only under prefers-color-scheme: dark", () => {
    const css = darkPaletteCss(themeCss);
    const slate = tailwindPalette(themeCss).get("slate")!;
    expect(css).toContain("@media (prefers-color-scheme: dark)");
    expect(css).toContain(`--color-slate-50: ${slate.get("950")};`);
    expect(css).toContain(`--color-slate-700: ${slate.get("300")};`);
    expect(css).toContain(`--color-slate-500: ${slate.get("500")};`);
    expect(css).toContain("color-scheme: dark;");
    expect(css).toMatch(/--color-white: oklch\(/);
  });

  it("is loaded by the console's stylesheet", () => {
    const globals = fs.readFileSync(new URL("../app/globals.css", import.meta.url), "utf8");
    expect(globals).toMatch(/@import "\.\/dark-palette\.css";/);
  });
});

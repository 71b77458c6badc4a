import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { config } from "../proxy.ts";

const icon = path.resolve(import.meta.dirname, "favicon.ico");

describe("the console's favicon", () => {
  it("is an icon file Next.js serves at /favicon.ico (browsers ask for it on every page)", () => {
    const bytes = fs.readFileSync(icon);
    // ICONDIR: reserved 0, type 1 (icon), at least one image.
    expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2)]).toEqual([0, 1]);
    expect(bytes.readUInt16LE(4)).toBeGreaterThan(0);
  });

  it("is served without a session: the auth gate's matcher leaves it out", () => {
    const [matcher] = config.matcher;
    expect(new RegExp(`^${matcher}$`).test("/favicon.ico")).toBe(false);
    expect(new RegExp(`^${matcher}$`).test("/endpoints")).toBe(true);
  });
});

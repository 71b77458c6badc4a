import { describe, expect, it } from "vitest";
import { describeMissing, ensureSystemParts } from "./ensure.ts";
import { missingParts, SYSTEM_PARTS, type SystemPart } from "./parts.ts";

/** A part that is there once `installed` holds its package. */
function part(name: string, neededFor: SystemPart["neededFor"], installed: Set<string>): SystemPart {
  return {
    name,
    why: `${name} is used`,
    neededFor,
    debianPackages: [name],
    problem: () => (installed.has(name) ? undefined : `no ${name}`),
  };
}

describe("the system parts the README's commands need", () => {
  it("are looked for only for the command that needs them", () => {
    const parts = [part("browser", ["test"], new Set()), part("sandbox", ["start", "test"], new Set())];
    expect(missingParts("start", {}, parts).map((missing) => missing.part.name)).toEqual(["sandbox"]);
    expect(missingParts("test", {}, parts).map((missing) => missing.part.name)).toEqual(["browser", "sandbox"]);
  });

  it("are installed with apt-get in one go, saying what and why, where this process may install", () => {
    const installed = new Set<string>();
    const parts = [part("browser", ["test"], installed), part("sandbox", ["test"], installed)];
    const calls: string[][] = [];
    const log: string[] = [];
    const left = ensureSystemParts("test", {
      parts,
      canInstall: true,
      log: (line) => log.push(line),
      apt: (args) => {
        calls.push(args);
        if (args.includes("install")) for (const name of args.slice(4)) installed.add(name);
        return 0;
      },
    });
    expect(left).toEqual([]);
    expect(calls).toEqual([
      ["-q", "update"],
      ["-q", "install", "-y", "--no-install-recommends", "browser", "sandbox"],
    ]);
    expect(log).toEqual([
      "Installing browser with apt-get (no browser): browser is used.",
      "Installing sandbox with apt-get (no sandbox): sandbox is used.",
    ]);
  });

  it("are returned, with nothing run, where this process may not install", () => {
    const parts = [part("sandbox", ["start"], new Set())];
    const left = ensureSystemParts("start", {
      parts,
      canInstall: false,
      apt: () => {
        throw new Error("apt-get must not run");
      },
    });
    expect(left.map((missing) => missing.problem)).toEqual(["no sandbox"]);
  });

  it("that apt-get could not install are returned, said once", () => {
    const log: string[] = [];
    const left = ensureSystemParts("test", {
      parts: [part("sandbox", ["test"], new Set())],
      canInstall: true,
      log: (line) => log.push(line),
      apt: (args) => (args.includes("update") ? 0 : 100),
    });
    expect(left).toHaveLength(1);
    expect(log.at(-1)).toBe("apt-get could not install sandbox.");
  });

  it("that are missing are told one line each, with the exact command that installs them", () => {
    const missing = [{ part: part("bubblewrap", ["test"], new Set()), problem: "no bwrap on PATH" }];
    expect(describeMissing(missing, false, true)).toEqual([
      "bubblewrap: no bwrap on PATH. Needed because bubblewrap is used. Install it: sudo apt-get update && sudo apt-get install -y --no-install-recommends bubblewrap",
    ]);
    expect(describeMissing(missing, true, true)[0]).toMatch(
      /Install it: apt-get update && apt-get install -y --no-install-recommends bubblewrap$/,
    );
    expect(describeMissing(missing, false, false)[0]).toMatch(
      /Install it: on Debian or Ubuntu `sudo apt-get update && .*bubblewrap`; elsewhere, your system's bubblewrap$/,
    );
  });

  it("are really probed: bwrap, Chromium and python3's venv each found missing where they are not", () => {
    const byName = Object.fromEntries(SYSTEM_PARTS.map((each) => [each.name, each]));
    const nowhere = { PATH: "/nonexistent", CHROMIUM_PATH: "/nonexistent/chromium", PYTHON: "/nonexistent/python3" };
    expect(byName["bubblewrap (bwrap)"]?.problem(nowhere)).toBe("no bwrap on PATH");
    expect(byName.Chromium?.problem(nowhere)).toBe("no /nonexistent/chromium");
    expect(byName["python3 with venv"]?.problem(nowhere)).toBe("/nonexistent/python3 not found");
  });
});

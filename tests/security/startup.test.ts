import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/** `npm start` refuses unsafe or impossible start-ups before it binds or starts anything, and says why. */
const repo = path.resolve(import.meta.dirname, "../..");
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "console-startup-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

function start(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const clean = { ...process.env };
  for (const name of ["CONSOLE_USERS", "CONSOLE_USERS_FILE", "CONSOLE_SESSION_SECRET", "CONSOLE_OIDC_ISSUER"]) {
    delete clean[name];
  }
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: repo,
    env: { ...clean, PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  // A start-up that wrongly goes ahead would keep running: stop it, and the assertions below fail.
  const guard = setTimeout(() => child.kill("SIGKILL"), 20_000);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(guard);
      resolve({ code, output });
    }),
  );
}

describe("npm start refuses", () => {
  it("to listen beyond loopback with no users configured", async () => {
    const result = await start({ HOST: "0.0.0.0", CONSOLE_DATA_DIR: path.join(scratch, "a") });
    expect(result.code).toBe(1);
    expect(result.output).toContain("Refusing to listen on 0.0.0.0: no console users are configured");
  });

  it("to listen beyond loopback with users but no session secret", async () => {
    const result = await start({
      HOST: "0.0.0.0",
      CONSOLE_DATA_DIR: path.join(scratch, "b"),
      CONSOLE_USERS: '[{"name":"ana","role":"viewer","password":"a-long-password"}]',
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain("CONSOLE_SESSION_SECRET is not set");
  });

  it("a setting with a bad value, naming it and the value", async () => {
    const result = await start({
      HOST: "127.0.0.1",
      CONSOLE_DATA_DIR: path.join(scratch, "settings"),
      CONSOLE_INVOKE_PER_MINUTE: "abc",
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain("The console's settings are not valid");
    expect(result.output).toContain("CONSOLE_INVOKE_PER_MINUTE: must be a number");
    expect(result.output).toContain('(it is "abc")');
  });

  it("a data directory it cannot create, naming it and CONSOLE_DATA_DIR", async () => {
    const blocker = path.join(scratch, "a-file");
    fs.writeFileSync(blocker, "");
    const result = await start({ HOST: "127.0.0.1", CONSOLE_DATA_DIR: path.join(blocker, "data") });
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/data directory .*a-file\/data cannot be created or written .*CONSOLE_DATA_DIR/);
  });

  it("a corrupt database, naming the file and the way out", async () => {
    const dataDir = path.join(scratch, "corrupt");
    fs.mkdirSync(dataDir);
    fs.writeFileSync(path.join(dataDir, "console.db"), "not a database ".repeat(500));
    const result = await start({ HOST: "127.0.0.1", CONSOLE_DATA_DIR: dataDir });
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/console\.db cannot be opened .*npm run backup/);
  });
});

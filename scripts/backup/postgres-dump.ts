import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describePostgresUrl } from "../../server/store/postgres-store.ts";
import { privateFile } from "../../server/store/private-files.ts";

/**
 * libpq's own variables for a URL's parts, so pg_dump gets the password through its environment and never on its
 * command line (where `ps` shows it to every local user). PGPASSWORD already set (the hosting stack's secret) stays
 * unless the URL holds one.
 */
export function libpqEnvironment(url: string): Record<string, string> {
  const parsed = new URL(url);
  const out: Record<string, string> = {};
  out.PGHOST = parsed.hostname;
  out.PGPORT = parsed.port || "5432";
  out.PGDATABASE = decodeURIComponent(parsed.pathname.slice(1)) || "postgres";
  if (parsed.username) out.PGUSER = decodeURIComponent(parsed.username);
  if (parsed.password) out.PGPASSWORD = decodeURIComponent(parsed.password);
  for (const [key, name] of [
    ["sslmode", "PGSSLMODE"],
    ["sslrootcert", "PGSSLROOTCERT"],
  ] as const) {
    const value = parsed.searchParams.get(key);
    if (value) out[name] = value;
  }
  return out;
}

/**
 * Dumps the console's PostgreSQL database with pg_dump's custom format (restore with pg_restore) into `outDir`, as
 * console-<stamp>.dump, 0600. pg_dump is consistent while consoles keep writing (one snapshot); it must be at least
 * the server's major version.
 */
export async function dumpPostgres(url: string, outDir: string, stamp: string): Promise<string> {
  const target = path.join(outDir, `console-${stamp}.dump`);
  privateFile(target);
  const errors: Buffer[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn("pg_dump", ["--format=custom", "--no-owner", `--file=${target}`], {
      // The operator's own environment (PATH, PGPASSWORD, PGSSLROOTCERT) with the URL's parts over it.
      env: { ...process.env, ...libpqEnvironment(url) },
      stdio: ["ignore", "ignore", "pipe"],
    });
    child.stderr.on("data", (chunk: Buffer) => errors.push(chunk));
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "ENOENT"
          ? new Error(
              "pg_dump is not installed (on Debian: apt-get install postgresql-client, of the server's version)",
            )
          : error,
      ),
    );
    child.on("close", resolve);
  });
  if (code !== 0) {
    fs.rmSync(target, { force: true });
    const message = Buffer.concat(errors).toString("utf8").trim().split("\n").slice(-3).join(" ");
    throw new Error(`pg_dump of ${describePostgresUrl(url)} failed: ${message || `exit ${code}`}`);
  }
  return target;
}

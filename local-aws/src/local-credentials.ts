import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * The profiles of the shared credentials file: the console process, and an unrestricted administrator (seeding,
 * tests, scripts, another team). Builds get keys of their own (`issueBuildKey`), never written to the file.
 */
export const LOCAL_PROFILES = ["console", "admin"] as const;
export type LocalProfile = (typeof LOCAL_PROFILES)[number];

/**
 * Who signed a request: the console, the unrestricted admin, or one CodeBuild build (with its project's role); or,
 * for what SageMaker does on a model's behalf (an asynchronous request's S3 input and output), the model's
 * execution role. Each request carries it, so IAM policies are applied per principal.
 */
export type LocalPrincipal =
  | { kind: "console" }
  | { kind: "admin" }
  | { kind: "codebuild"; project: string; buildId: string }
  | { kind: "execution-role"; roleArn: string };

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
  keys: Record<LocalProfile, AccessKey>;
  /**
   * New keys for one build, as CodeBuild hands each build its project role's credentials: they identify the build,
   * live in memory only and are refused once revoked (when the build ends).
   */
  issueBuildKey(project: string, buildId: string): AccessKey;
  revokeKey(accessKeyId: string): void;
  /** The principal a key was issued to, with its secret; undefined for a key this start did not issue. */
  find(accessKeyId: string): { principal: LocalPrincipal; key: AccessKey } | undefined;
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
  const keys = Object.fromEntries(LOCAL_PROFILES.map((name) => [name, newAccessKey()])) as Record<
    LocalProfile,
    AccessKey
  >;
  const file = path.join(dir, "credentials");
  const configFile = path.join(dir, "config");
  writePrivate(
    file,
    LOCAL_PROFILES.map(
      (name) =>
        `[${name}]\naws_access_key_id = ${keys[name].accessKeyId}\naws_secret_access_key = ${keys[name].secretAccessKey}\n`,
    ).join("\n"),
  );
  writePrivate(configFile, LOCAL_PROFILES.map((name) => `[profile ${name}]\nregion = ${region}\n`).join("\n"));
  const issued = new Map<string, { principal: LocalPrincipal; key: AccessKey }>(
    LOCAL_PROFILES.map((name) => [keys[name].accessKeyId, { principal: { kind: name }, key: keys[name] }]),
  );
  return {
    file,
    configFile,
    keys,
    issueBuildKey(project, buildId) {
      const key = newAccessKey();
      issued.set(key.accessKeyId, { principal: { kind: "codebuild", project, buildId }, key });
      return key;
    },
    revokeKey(accessKeyId) {
      if (issued.get(accessKeyId)?.principal.kind === "codebuild") issued.delete(accessKeyId);
    },
    find: (accessKeyId) => issued.get(accessKeyId),
  };
}

/** The keys a running control plane wrote for `principal`, read back from its credentials file (other processes). */
export function readLocalAccessKey(dataDir: string, principal: LocalProfile): AccessKey {
  const file = path.join(localCredentialsDir(dataDir), "credentials");
  const text = fs.readFileSync(file, "utf8");
  const section = text.split(/^\[/m).find((part) => part.startsWith(`${principal}]`)) ?? "";
  const value = (name: string) => new RegExp(`^${name}\\s*=\\s*(\\S+)`, "m").exec(section)?.[1];
  const accessKeyId = value("aws_access_key_id");
  const secretAccessKey = value("aws_secret_access_key");
  if (!accessKeyId || !secretAccessKey) throw new Error(`${file} has no [${principal}] profile`);
  return { accessKeyId, secretAccessKey };
}

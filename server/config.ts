import { z } from "zod";
import { ADAPTER_REPOSITORY, IMAGE_BUILD_PROJECT, MODEL_PACKAGE_PROJECT } from "../contract/stack/console-contract.ts";
import { parseUserList } from "./auth/user-list.ts";
import { parseProxyList } from "./http/proxy-list.ts";

/**
 * Every environment variable the console reads, in one place: each with its type, its default and what it does.
 * The console reads them here and nowhere else (`tests/layout/environment-reads.test.ts`); everything else takes
 * the parsed `ConsoleConfig` (or the part of it it needs) as a parameter. docs/settings.md is this table.
 * The AWS SDK still reads its own variables (credentials, profiles, AWS_ENDPOINT_URL_<SERVICE>) itself.
 */

/** An unset variable and an empty one mean the same: not configured. */
const blank = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

const text = () => z.preprocess(blank, z.string().optional());
const textOr = (fallback: string) => z.preprocess(blank, z.string().default(fallback));
const url = (what: string) =>
  z.preprocess(
    blank,
    z
      .url({ protocol: /^https?$/, message: `must be an http(s) URL (${what}), e.g. https://host.example/path` })
      .optional(),
  );
const positiveNumber = (fallback: number, what: string) =>
  z.preprocess(
    blank,
    z.coerce
      .number({ message: `must be a number (${what})` })
      .refine((value) => Number.isFinite(value) && value > 0, { message: `must be a number above 0 (${what})` })
      .default(fallback),
  );
const port = (fallback: number) =>
  z.preprocess(
    blank,
    z.coerce
      .number({ message: "must be a port number, 0-65535" })
      .int({ message: "must be a port number, 0-65535" })
      .min(0, { message: "must be a port number, 0-65535" })
      .max(65_535, { message: "must be a port number, 0-65535" })
      .default(fallback),
  );
/** A value whose parser throws a message that starts after the variable's name, e.g. "is not valid JSON". */
const parsedBy = (parse: (raw: string) => unknown) =>
  text().superRefine((value, context) => {
    if (value === undefined) return;
    try {
      parse(value);
    } catch (error) {
      context.addIssue({ code: "custom", message: (error as Error).message });
    }
  });

const postgresUrl = (raw: string) => {
  let parsed: URL | undefined;
  try {
    parsed = new URL(raw);
  } catch {}
  if (!parsed || !/^postgres(ql)?:$/.test(parsed.protocol) || !parsed.hostname) {
    throw new Error("must be a PostgreSQL URL, e.g. postgres://console@db.example.com:5432/console");
  }
};

const origins = (raw: string) => {
  for (const origin of raw.split(",").map((part) => part.trim())) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {}
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin.replace(/\/$/, "")) {
      throw new Error(`"${origin}" is not an origin (a scheme and host, e.g. https://console.example.com)`);
    }
  }
};

export interface SettingDoc {
  /** The default, as a person would write it; absent: unset. */
  default?: string;
  description: string;
  /** Never echoed in an error. */
  secret?: boolean;
  group: "Mode and AWS" | "Sign-in" | "Requests" | "Process";
}

/** Each setting: its zod type and its documentation. */
const settings = {
  CONSOLE_MODE: {
    schema: z.preprocess(blank, z.enum(["local", "aws"], { message: 'must be "local" or "aws"' }).default("aws")),
    doc: {
      group: "Mode and AWS",
      default: "aws",
      description:
        "`local`: the AWS calls go to the local control plane that `npm start` started; `aws`: to AWS. `npm start` sets it for the console: from the environment's AWS configuration when unset.",
    },
  },
  AWS_REGION: {
    schema: text(),
    doc: { group: "Mode and AWS", description: "The AWS region (the SDK reads it too)." },
  },
  AWS_DEFAULT_REGION: {
    schema: text(),
    doc: { group: "Mode and AWS", description: "The region when AWS_REGION is unset." },
  },
  AWS_ENDPOINT_URL: {
    schema: url("one endpoint for every AWS service"),
    doc: {
      group: "Mode and AWS",
      description:
        "One endpoint for every AWS service (the SDK reads it, and AWS_ENDPOINT_URL_<SERVICE>, itself); the console reads it to address S3 buckets by path.",
    },
  },
  AWS_ENDPOINT_URL_S3: {
    schema: url("the S3 endpoint"),
    doc: {
      group: "Mode and AWS",
      description: "The S3 endpoint (read by the SDK); when set, buckets are addressed by path, not by host name.",
    },
  },
  SAGEMAKER_EXECUTION_ROLE_ARN: {
    schema: z.preprocess(
      blank,
      z
        .string()
        .regex(/^arn:aws[a-z-]*:iam::\d{12}:role\/.+$/, {
          message: "must be an IAM role ARN, arn:aws:iam::<account>:role/<name>",
        })
        .optional(),
    ),
    doc: {
      group: "Mode and AWS",
      description: "The role SageMaker models and jobs run as (the stack's output of that name).",
    },
  },
  ECR_REPOSITORY: {
    schema: textOr(ADAPTER_REPOSITORY),
    doc: {
      group: "Mode and AWS",
      default: ADAPTER_REPOSITORY,
      description: "The ECR repository of the adapter images.",
    },
  },
  CONSOLE_ARTIFACT_BUCKET: {
    schema: text(),
    doc: {
      group: "Mode and AWS",
      description: "The stack's artifact bucket: build sources, batch data, async inference.",
    },
  },
  CONSOLE_RESOURCE_PREFIX: {
    schema: text(),
    doc: {
      group: "Mode and AWS",
      description:
        "The SageMaker names the console manages (the stack's SageMakerNamePrefix), read in lower case; unset: any name.",
    },
  },
  CODEBUILD_MODEL_PROJECT: {
    schema: textOr(MODEL_PACKAGE_PROJECT),
    doc: {
      group: "Mode and AWS",
      default: MODEL_PACKAGE_PROJECT,
      description: "The CodeBuild project that packages models.",
    },
  },
  CODEBUILD_IMAGE_PROJECT: {
    schema: textOr(IMAGE_BUILD_PROJECT),
    doc: {
      group: "Mode and AWS",
      default: IMAGE_BUILD_PROJECT,
      description: "The CodeBuild project that builds adapter images.",
    },
  },
  CONSOLE_CONTROL_PLANE_HEALTH_URL: {
    schema: url("the control plane's health check"),
    doc: {
      group: "Mode and AWS",
      description:
        "Local mode: the control plane's health URL, whose state /api/health includes (`npm start` sets it).",
    },
  },
  CONSOLE_SESSION_SECRET: {
    schema: z.preprocess(
      blank,
      z
        .string()
        .min(32, { message: "must be at least 32 characters long, e.g. $(openssl rand -base64 48)" })
        .optional(),
    ),
    doc: {
      group: "Sign-in",
      secret: true,
      default: "a random key per process (loopback only)",
      description: "Signs session cookies; required beyond loopback, so sessions survive a restart.",
    },
  },
  CONSOLE_USERS: {
    schema: parsedBy(parseUserList),
    doc: {
      group: "Sign-in",
      secret: true,
      description:
        'Users as JSON: [{"name", "role": "operator" | "viewer", "passwordHash"}] (hashes from `npm run users -- hash`).',
    },
  },
  CONSOLE_USERS_FILE: {
    schema: text(),
    doc: { group: "Sign-in", description: "A file holding CONSOLE_USERS' JSON, read on each sign-in." },
  },
  CONSOLE_OIDC_ISSUER: {
    schema: url("the OpenID Connect issuer"),
    doc: { group: "Sign-in", description: "Single sign-on: the OpenID Connect issuer (e.g. a Cognito user pool)." },
  },
  CONSOLE_OIDC_CLIENT_ID: {
    schema: text(),
    doc: { group: "Sign-in", description: "Single sign-on: the client id (required with the issuer)." },
  },
  CONSOLE_OIDC_CLIENT_SECRET: {
    schema: text(),
    doc: {
      group: "Sign-in",
      secret: true,
      description: "Single sign-on: the client secret; unset for a public client.",
    },
  },
  CONSOLE_OIDC_REDIRECT_URI: {
    schema: url("where the provider returns to: …/api/auth/oidc/callback"),
    doc: {
      group: "Sign-in",
      description: "Single sign-on: the console's …/api/auth/oidc/callback address (required with the issuer).",
    },
  },
  CONSOLE_OIDC_ROLE_CLAIM: {
    schema: textOr("cognito:groups"),
    doc: {
      group: "Sign-in",
      default: "cognito:groups",
      description: "Single sign-on: the claim whose value contains `operator` or `viewer`.",
    },
  },
  CONSOLE_INVOKE_BURST: {
    schema: positiveNumber(20, "playground requests a user may send at once"),
    doc: { group: "Requests", default: "20", description: "Playground requests one user may send at once." },
  },
  CONSOLE_INVOKE_PER_MINUTE: {
    schema: positiveNumber(120, "playground requests per minute per user"),
    doc: { group: "Requests", default: "120", description: "Playground requests per minute one user may keep up." },
  },
  CONSOLE_PUBLIC_ORIGIN: {
    schema: parsedBy(origins),
    doc: {
      group: "Requests",
      description:
        "Behind a proxy: the console's public origins, comma-separated; its X-Forwarded-* headers are then believed.",
    },
  },
  CONSOLE_TRUSTED_PROXIES: {
    schema: parsedBy(parseProxyList),
    doc: {
      group: "Requests",
      description:
        "The proxies in front of the console (IP addresses or CIDR ranges, comma-separated): only their X-Forwarded-* headers are believed.",
    },
  },
  CONSOLE_DATA_DIR: {
    schema: textOr(".console-data"),
    doc: {
      group: "Process",
      default: ".console-data",
      description: "Where the console database (and local mode's data) live.",
    },
  },
  CONSOLE_DATABASE_URL: {
    schema: parsedBy(postgresUrl),
    doc: {
      group: "Process",
      secret: true,
      description:
        "The console's store in PostgreSQL (`postgres://user@host:5432/db?sslmode=verify-full`; the password in PGPASSWORD or the URL), which more than one console process can share. Unset: SQLite in CONSOLE_DATA_DIR.",
    },
  },
  CONSOLE_LEASE_SECONDS: {
    schema: positiveNumber(30, "how long a replica's claim on background work lasts unrenewed"),
    doc: {
      group: "Process",
      default: "30",
      description:
        "Background work (evaluation runs, promotions, autoscaling registered again after an update, drift publishing) is leased to one console process at a time, renewed every third of this; a process that dies has its work taken over by another this many seconds later.",
    },
  },
  HOST: {
    schema: textOr("127.0.0.1"),
    doc: {
      group: "Process",
      default: "127.0.0.1",
      description: "`npm start`: the address to listen on; beyond loopback needs users and CONSOLE_SESSION_SECRET.",
    },
  },
  PORT: {
    schema: port(3000),
    doc: { group: "Process", default: "3000", description: "`npm start`: the port to listen on." },
  },
  CONSOLE_REQUEST_CAPTURE: {
    schema: text(),
    doc: {
      group: "Process",
      description: "Tests: a folder where every AWS request is recorded, to check against AWS's service models.",
    },
  },
  NODE_ENV: {
    schema: text(),
    doc: {
      group: "Process",
      description: "Set by Next.js; `production` leaves out the development-only script policy.",
    },
  },
  NEXT_PHASE: {
    schema: text(),
    doc: { group: "Process", description: "Set by Next.js: its phase (start-up work is skipped while it builds)." },
  },
  NEXT_MANUAL_SIG_HANDLE: {
    schema: text(),
    doc: {
      group: "Process",
      description:
        "Set by `npm start` and the console image: Next.js leaves SIGTERM and SIGINT to the console, which finishes the requests in flight and releases its leases before it exits. Without it Next.js exits on its own, and another process takes this one's work over only when its leases expire.",
    },
  },
  NEXT_DIST_DIR: {
    schema: textOr(".next"),
    doc: {
      group: "Process",
      default: ".next",
      description: "The build folder (tests and the performance script use their own).",
    },
  },
  NEXT_OUTPUT: {
    schema: z.preprocess(blank, z.enum(["standalone"], { message: 'must be "standalone" or unset' }).optional()),
    doc: {
      group: "Process",
      description:
        "`standalone`: `next build` also writes a self-contained server (`<NEXT_DIST_DIR>/standalone`), as the console image's build does; unset: the build `npm start` runs.",
    },
  },
  NEXT_SKIP_TYPECHECK: {
    schema: z.preprocess(blank, z.enum(["0", "1"], { message: 'must be "1" or "0"' }).default("0")),
    doc: {
      group: "Process",
      default: "0",
      description: "`1`: `next build` skips type checking (`npm test` has type-checked already).",
    },
  },
} satisfies Record<string, { schema: z.ZodType; doc: SettingDoc }>;

type Settings = typeof settings;
export type SettingName = keyof Settings;

export const settingNames = Object.keys(settings) as SettingName[];

export const settingDocs: Record<SettingName, SettingDoc> = Object.fromEntries(
  settingNames.map((name) => [name, settings[name].doc]),
) as Record<SettingName, SettingDoc>;

const consoleConfigSchema = z
  .object(
    Object.fromEntries(settingNames.map((name) => [name, settings[name].schema])) as {
      [Name in SettingName]: Settings[Name]["schema"];
    },
  )
  .superRefine((config, context) => {
    if (!config.CONSOLE_OIDC_ISSUER) return;
    for (const name of ["CONSOLE_OIDC_CLIENT_ID", "CONSOLE_OIDC_REDIRECT_URI"] as const) {
      if (!config[name]) {
        context.addIssue({ code: "custom", path: [name], message: "must be set when CONSOLE_OIDC_ISSUER is" });
      }
    }
  });

export type ConsoleConfig = z.output<typeof consoleConfigSchema>;

/** A start-up that cannot go ahead: every bad setting, by name. */
export class ConsoleConfigError extends Error {
  constructor(readonly problems: readonly { name: string; message: string }[]) {
    super(
      `The console's settings are not valid (see docs/settings.md):\n${problems
        .map((problem) => `  ${problem.name}: ${problem.message}`)
        .join("\n")}`,
    );
    this.name = "ConsoleConfigError";
  }
}

/** Parses the settings out of `env`; throws a ConsoleConfigError naming every bad one (secrets are not echoed). */
export function readConsoleConfig(env: Readonly<Record<string, string | undefined>>): ConsoleConfig {
  const values = Object.fromEntries(settingNames.map((name) => [name, env[name]]));
  const parsed = consoleConfigSchema.safeParse(values);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? "settings") as SettingName;
    const value = values[name];
    const hidden = value === undefined || settingDocs[name]?.secret || issue.message.includes(value);
    const shown = hidden ? "" : ` (it is ${JSON.stringify(value)})`;
    return { name, message: `${issue.message}${shown}` };
  });
  throw new ConsoleConfigError(problems);
}

/**
 * The process's settings, parsed once. The environment is only looked at again to notice that it changed (tests
 * change `process.env` between cases); the parse, and a bad value's error, happen once per distinct environment.
 */
export function consoleConfig(): ConsoleConfig {
  const env = process.env;
  const key = settingNames.map((name) => env[name] ?? "\u0000").join("\u0001");
  const store = globalThis as { __consoleConfig?: { key: string; config: ConsoleConfig } };
  if (store.__consoleConfig?.key !== key) store.__consoleConfig = { key, config: readConsoleConfig(env) };
  return store.__consoleConfig.config;
}

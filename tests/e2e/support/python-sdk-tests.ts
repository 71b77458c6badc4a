import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { localCredentialsDir } from "@decision-console/local-aws";

const root = path.resolve(import.meta.dirname, "../../..");
const python = path.join(root, ".venv-tests/bin/python");
const testsDir = "tests/python/sagemaker_sdk";

/** Why the Python tests cannot run here (no venv: `npm run py:env` says why in .venv-tests/SKIPPED), or null. */
export function pythonTestsUnavailable(): string | null {
  if (fs.existsSync(python)) return null;
  const skipped = path.join(root, ".venv-tests/SKIPPED");
  return fs.existsSync(skipped)
    ? fs.readFileSync(skipped, "utf8").trim()
    : "no .venv-tests (npm run py:env creates it)";
}

export type DecisionAnswer = { id: string; option_ids: string[]; probabilities: number[] };

/** What tests/python/sagemaker_sdk/conftest.py writes to SDK_TEST_RESULTS. */
export type SdkTestResults = {
  exitStatus: number;
  tests: Record<string, { outcome: string; message: string | null }>;
  observed: {
    predictor?: DecisionAnswer;
    async?: DecisionAnswer & { outputPath: string; failurePath: string | null };
    transform?: { jobName: string; answers: DecisionAnswer[] };
    deploy?: DecisionAnswer & { endpoint: string; model: string };
  };
  calls: {
    total: number;
    httpRequests: number;
    byOperation: Record<string, number>;
    /** `"<service>.<Operation> <HTTP status> <error code>"` -> how many times. */
    errors: Record<string, number>;
  };
};

export type SdkTestInputs = {
  controlPlaneUrl: string;
  controlPlaneDataDir: string;
  region: string;
  realtimeEndpoint: string;
  asyncEndpoint: string;
  decision: unknown;
  bucket: string;
  roleArn: string;
  runId: string;
  resultsFile: string;
};

/**
 * The environment a user of the local stack sets for their own script: AWS's variables only (every service at
 * the control plane's URL, its shared credentials and config files, the admin profile, a region), none of this
 * process's AWS_* variables, plus the SDK_TEST_* inputs the tests read.
 */
function userEnvironment(inputs: SdkTestInputs): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith("AWS_")) delete env[name];
  const credentials = localCredentialsDir(inputs.controlPlaneDataDir);
  return {
    ...env,
    AWS_ENDPOINT_URL: inputs.controlPlaneUrl,
    AWS_SHARED_CREDENTIALS_FILE: path.join(credentials, "credentials"),
    AWS_CONFIG_FILE: path.join(credentials, "config"),
    AWS_PROFILE: "admin",
    AWS_REGION: inputs.region,
    SAGEMAKER_SUPPRESS_V2_WARNING: "1",
    PYTHONDONTWRITEBYTECODE: "1",
    SDK_TEST_REALTIME_ENDPOINT: inputs.realtimeEndpoint,
    SDK_TEST_ASYNC_ENDPOINT: inputs.asyncEndpoint,
    SDK_TEST_DECISION: JSON.stringify(inputs.decision),
    SDK_TEST_BUCKET: inputs.bucket,
    SDK_TEST_ROLE_ARN: inputs.roleArn,
    SDK_TEST_RUN_ID: inputs.runId,
    SDK_TEST_RESULTS: inputs.resultsFile,
  };
}

/** Runs the SDK's pytest suite; answers its exit status, its output and the results file it wrote. */
export async function runSdkTests(
  inputs: SdkTestInputs,
  timeoutMs: number,
): Promise<{ status: number | null; output: string; results: SdkTestResults | null }> {
  fs.rmSync(inputs.resultsFile, { force: true });
  const child = spawn(python, ["-m", "pytest", "-p", "no:cacheprovider", "-q", "-rA", testsDir], {
    cwd: root,
    env: userEnvironment(inputs),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
  const status = await new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  clearTimeout(timer);
  const results = fs.existsSync(inputs.resultsFile)
    ? (JSON.parse(fs.readFileSync(inputs.resultsFile, "utf8")) as SdkTestResults)
    : null;
  return { status, output, results };
}

import fs from "node:fs";
import { DEFAULT_REGION, executionRoleArnOf, LOCAL_ACCOUNT_ID } from "@decision-console/local-aws";
import { expect, type Page, type TestInfo, test } from "@playwright/test";
import type { AsyncInvocation, AsyncOutcome } from "../../contract/invoke/invoke-async.ts";
import { LOCAL_ARTIFACT_BUCKET, workspaceStackFixture } from "../../infra/local-stack/workspace-fixture.ts";
import { packageAndOpenDeploy } from "./pages/builds-page.ts";
import { cpuAdapterChoices, DeployPage } from "./pages/deploy-page.ts";
import { EndpointsPage } from "./pages/endpoints-page.ts";
import { deleteEndpoint } from "./support/deploy-packaged-model.ts";
import { e2eSettings, readModelPin, readTrainedModelPin } from "./support/e2e-settings.ts";
import {
  type DecisionAnswer,
  pythonTestsUnavailable,
  runSdkTests,
  type SdkTestResults,
} from "./support/python-sdk-tests.ts";

/**
 * The SageMaker Python SDK (v2) against local mode, configured only as a user configures it (issue 30): the console
 * deploys a real-time and an asynchronous endpoint, answers one decision on each through its own API (what the
 * playground calls), then tests/python/sagemaker_sdk runs Predictor, AsyncPredictor, Transformer and
 * Model.deploy as the admin profile, and their probabilities must equal the console's.
 */
test.describe.configure({ mode: "serial" });

const unavailable = pythonTestsUnavailable();
const required = process.env.PYTHON_TESTS === "required";
if (unavailable) console.warn(`SageMaker Python SDK tests: skipped: ${unavailable}`);
test.skip(unavailable !== null && !required, `SageMaker Python SDK tests: skipped: ${unavailable}`);

const realtimeEndpoint = "dc-e2e-sdk-realtime";
const asyncEndpoint = "dc-e2e-sdk-async";
/** Answers of the same request through one llama.cpp decode each agree to rounding only. */
const SAME_SCORING = 1e-9;
/** DESIGN.md: records scored together in one decode (the transform's concurrent records) agree to 1e-4. */
const SHARED_SCORING = 1e-4;

const decision = {
  decision: {
    id: "sdk-refund",
    state: "Receipt present, bought 12 days ago, the kettle leaks from its base.",
    question: "Should the refund be approved?",
    options: [
      { id: "approve", description: "Approve the refund" },
      { id: "decline", description: "Decline the refund" },
      { id: "escalate", description: "Escalate to a supervisor" },
    ],
  },
};

const consoleAnswers: { realtime?: DecisionAnswer; async?: DecisionAnswer } = {};
let sdk: SdkTestResults | null = null;

/** The part of the adapter's answer (`{"result": {...}}`, what the console's invoke passes through) compared. */
function answerOf(body: unknown): DecisionAnswer {
  const { id, option_ids, probabilities } = (body as { result: DecisionAnswer }).result;
  return { id, option_ids, probabilities };
}

function measured(testInfo: TestInfo, description: string): void {
  testInfo.annotations.push({ type: "measured", description });
  console.log(`measured: ${description}`);
}

/** The largest difference between two answers' probabilities, after checking they name the same options. */
function largestDifference(label: string, actual: DecisionAnswer | undefined, expected: DecisionAnswer): number {
  expect(actual, `${label}: the SDK test recorded no answer`).toBeDefined();
  expect(actual?.option_ids, label).toEqual(expected.option_ids);
  return Math.max(...expected.probabilities.map((p, i) => Math.abs(p - (actual?.probabilities[i] ?? Number.NaN))));
}

async function asyncAnswer(page: Page): Promise<DecisionAnswer> {
  const queued = await page.request.post(`/api/endpoints/${asyncEndpoint}/invoke-async`, { data: { body: decision } });
  expect(queued.status()).toBe(202);
  const { inferenceId } = (await queued.json()) as AsyncInvocation;
  let outcome: AsyncOutcome = { status: "pending", body: null, outputLocation: "", failureLocation: null };
  await expect
    .poll(
      async () => {
        const seen = await page.request.get(`/api/endpoints/${asyncEndpoint}/invoke-async/${inferenceId}`);
        outcome = (await seen.json()) as AsyncOutcome;
        return outcome.status;
      },
      { timeout: 120_000, intervals: [500] },
    )
    .not.toBe("pending");
  expect(outcome.status, JSON.stringify(outcome.body)).toBe("completed");
  return answerOf(outcome.body);
}

/** With PYTHON_TESTS=required a missing environment fails the spec before anything is deployed. */
function requirePython(): void {
  if (unavailable) throw new Error(`PYTHON_TESTS=required, but the Python tests cannot run: ${unavailable}`);
}

test("the console deploys a real-time and an asynchronous endpoint of the model", async ({ page }) => {
  test.setTimeout(600_000);
  requirePython();
  await packageAndOpenDeploy(page, readTrainedModelPin() ?? readModelPin());
  const deployQuery = new URL(page.url()).search;
  const deploy = new DeployPage(page);
  await deploy.fill(cpuAdapterChoices(realtimeEndpoint));
  await deploy.reviewAndDeploy();
  await deploy.goto(deployQuery);
  await deploy.fill(cpuAdapterChoices(asyncEndpoint));
  await deploy.chooseAsynchronous();
  await deploy.reviewAndDeploy();
  const endpoints = new EndpointsPage(page);
  await endpoints.goto();
  await endpoints.waitForStatus(realtimeEndpoint, "InService");
  await endpoints.waitForStatus(asyncEndpoint, "InService");
});

test("the console's API answers the decision on both endpoints", async ({ page }) => {
  const invoked = await page.request.post(`/api/endpoints/${realtimeEndpoint}/invoke`, { data: { body: decision } });
  expect(invoked.status()).toBe(200);
  consoleAnswers.realtime = answerOf(await invoked.json());
  consoleAnswers.async = await asyncAnswer(page);
  expect(consoleAnswers.realtime.option_ids).toEqual(["approve", "decline", "escalate"]);
});

test("the SageMaker Python SDK's Predictor, AsyncPredictor, Transformer and Model.deploy work on local mode", async () => {
  const testInfo = test.info();
  test.setTimeout(900_000);
  requirePython();
  const { controlPlaneFile, controlPlaneDataDir } = e2eSettings();
  const resultsFile = testInfo.outputPath("sdk-results.json");
  const started = performance.now();
  const run = await runSdkTests(
    {
      controlPlaneUrl: fs.readFileSync(controlPlaneFile, "utf8"),
      controlPlaneDataDir,
      region: DEFAULT_REGION,
      realtimeEndpoint,
      asyncEndpoint,
      decision,
      bucket: LOCAL_ARTIFACT_BUCKET,
      roleArn: executionRoleArnOf(workspaceStackFixture().stack, LOCAL_ACCOUNT_ID),
      runId: Date.now().toString(36),
      resultsFile,
    },
    840_000,
  );
  console.log(run.output.slice(-6000));
  expect(run.results, `pytest wrote no results (exit ${run.status})`).not.toBeNull();
  sdk = run.results;
  const failed = Object.entries(sdk?.tests ?? {}).filter(([, test]) => test.outcome !== "passed");
  expect(failed, JSON.stringify(failed, null, 2)).toEqual([]);
  expect(Object.keys(sdk?.tests ?? {})).toHaveLength(6);
  expect(run.status).toBe(0);
  measured(
    testInfo,
    `SageMaker Python SDK: ${sdk?.calls.total} API calls (${sdk?.calls.httpRequests} HTTP requests) in ${((performance.now() - started) / 1000).toFixed(0)} s: ${JSON.stringify(sdk?.calls.byOperation)}`,
  );
});

test("the SDK's probabilities equal the console's for the same decision", async () => {
  const testInfo = test.info();
  const realtime = consoleAnswers.realtime;
  const queued = consoleAnswers.async;
  if (!sdk || !realtime || !queued) throw new Error("an earlier step did not record its answers");
  const { predictor, async, deploy, transform } = sdk.observed;
  const differences = {
    predictor: largestDifference("Predictor vs the playground's invoke", predictor, realtime),
    async: largestDifference("AsyncPredictor vs the console's invoke-async", async, queued),
    deploy: largestDifference("Model.deploy's endpoint vs the playground's invoke", deploy, realtime),
    transform: largestDifference(
      "Transformer's first line vs the playground's invoke",
      transform?.answers[0],
      realtime,
    ),
  };
  measured(testInfo, `largest probability differences from the console's answers: ${JSON.stringify(differences)}`);
  expect(differences.predictor).toBeLessThanOrEqual(SAME_SCORING);
  expect(differences.async).toBeLessThanOrEqual(SAME_SCORING);
  expect(differences.deploy).toBeLessThanOrEqual(SAME_SCORING);
  expect(differences.transform).toBeLessThanOrEqual(SHARED_SCORING);
  expect(transform?.answers.map((answer) => answer.id)).toEqual(["sdk-refund", "sdk-refund-v1", "sdk-refund-v2"]);
});

test("every error the SDK met is one AWS answers in the same case, with AWS's code", async () => {
  const testInfo = test.info();
  if (!sdk) throw new Error("the SDK tests recorded nothing");
  // Each with where it comes from: the object_exists waiter polls until the answer is written; the missing
  // endpoint test; the name the SDK derives from a digest-pinned image; the endpoint_deleted waiter and the checks
  // that the deleted resources are gone.
  const expected = new Set([
    "s3.HeadObject 404 404",
    "sagemaker.CreateModel 400 ValidationException",
    "sagemaker-runtime.InvokeEndpoint 400 ValidationError",
    "sagemaker.DescribeEndpoint 400 ValidationException",
    "sagemaker.DescribeEndpointConfig 400 ValidationException",
    "sagemaker.DescribeModel 400 ValidationException",
  ]);
  measured(testInfo, `error responses the SDK met: ${JSON.stringify(sdk.calls.errors)}`);
  expect(Object.keys(sdk.calls.errors).filter((error) => !expected.has(error))).toEqual([]);
  // Only the services these clients are documented to call: no STS, IAM or bucket creation.
  const services = new Set(Object.keys(sdk.calls.byOperation).map((operation) => operation.split(".")[0]));
  expect([...services].sort()).toEqual(["logs", "s3", "sagemaker", "sagemaker-runtime"]);
  expect(sdk.calls.byOperation["s3.CreateBucket"]).toBeUndefined();
});

test("the console's endpoints are deleted", async ({ page }) => {
  await deleteEndpoint(page, realtimeEndpoint);
  await deleteEndpoint(page, asyncEndpoint);
});

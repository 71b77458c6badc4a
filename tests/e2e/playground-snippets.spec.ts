import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { DEFAULT_REGION, localCredentialsDir } from "@decision-console/local-aws";
import { expect, type TestInfo, test } from "@playwright/test";
import { BuildDetailPage, BuildsPage } from "./pages/builds-page.ts";
import { cpuAdapterChoices, DeployPage } from "./pages/deploy-page.ts";
import { EndpointsPage } from "./pages/endpoints-page.ts";
import { KeysPage } from "./pages/keys-page.ts";
import { type Meter, PlaygroundPage } from "./pages/playground-page.ts";
import { deleteEndpoint } from "./support/deploy-packaged-model.ts";
import { e2eSettings, readModelPin, readTrainedModelPin } from "./support/e2e-settings.ts";

/**
 * The playground's request snippets, run verbatim (issue 30): a decision is run in the playground, then each
 * snippet is read from the page exactly as rendered, written to a file untouched and run with the tool a user
 * would run it with, in an environment holding only what a user sets for local mode. Each must print the
 * endpoint's answer as JSON on stdout, with the probabilities the page's meters show. In System One and OpenAI
 * Decisions, the typesafe-sdk and openai snippets are run the same way against the console's gateway, with a key
 * created on the Keys page in DECISION_KEY (issue 53).
 */
test.describe.configure({ mode: "serial" });

const realTimeEndpoint = "dc-e2e-snippets";
const asyncEndpoint = "dc-e2e-snippets-async";
let deployQuery = "";

const repoRoot = path.resolve(import.meta.dirname, "..", "..");
const venvBin = path.join(repoRoot, ".venv-tests", "bin");

/** How each snippet is run: its file's path, and the folder to run in (the repository's, for its npx). */
type Language = {
  key: "typescript" | "python" | "cli";
  tab: string;
  file: string;
  command: (file: string) => { argv: string[]; cwd: string };
};
const languages: Language[] = [
  {
    key: "typescript",
    tab: "TypeScript SDK",
    file: "snippet.ts",
    command: (file) => ({ argv: ["npx", "tsx", file], cwd: repoRoot }),
  },
  {
    key: "python",
    tab: "Python boto3",
    file: "snippet.py",
    command: (file) => ({ argv: [path.join(venvBin, "python"), file], cwd: path.dirname(file) }),
  },
  {
    key: "cli",
    tab: "AWS CLI",
    file: "snippet.sh",
    command: (file) => ({ argv: ["bash", file], cwd: path.dirname(file) }),
  },
];

/** Why the Python and CLI snippets cannot run here, or null when the venv (npm run py:env) is usable. */
function pythonUnavailable(): string | null {
  const skipped = path.join(repoRoot, ".venv-tests", "SKIPPED");
  if (fs.existsSync(skipped)) return fs.readFileSync(skipped, "utf8").trim();
  if (!fs.existsSync(path.join(venvBin, "python")) || !fs.existsSync(path.join(venvBin, "aws"))) {
    return "no .venv-tests (npm run py:env creates it)";
  }
  return null;
}

/**
 * Only what a user sets to reach local mode (README, "Local mode"): the one endpoint URL, the control plane's
 * credentials and config files, a profile and the Region. The profile is `console`, the narrowest one local mode
 * issues that may invoke `dc-*` endpoints and use their `async/<endpoint>/` folders: a snippet that needed more
 * than the console's own IAM policy grants fails here, where `admin` would let any call through.
 */
function userEnvironment(): Record<string, string | undefined> {
  const { controlPlaneFile, controlPlaneDataDir } = e2eSettings();
  const credentials = localCredentialsDir(controlPlaneDataDir);
  return {
    PATH: `${venvBin}${path.delimiter}${process.env.PATH ?? ""}`,
    HOME: process.env.HOME,
    AWS_ENDPOINT_URL: fs.readFileSync(controlPlaneFile, "utf8").trim(),
    AWS_SHARED_CREDENTIALS_FILE: path.join(credentials, "credentials"),
    AWS_CONFIG_FILE: path.join(credentials, "config"),
    AWS_PROFILE: "console",
    AWS_REGION: DEFAULT_REGION,
  };
}

type Run = { code: number; stdout: string; stderr: string };

/** Runs a snippet in the user's environment, with `extra` variables (the gateway key) where it needs them. */
function runSnippet({ argv, cwd }: { argv: string[]; cwd: string }, extra: Record<string, string> = {}): Promise<Run> {
  const [file, ...args] = argv;
  return new Promise((resolve) => {
    // Next's types make NODE_ENV required in ProcessEnv; a user's shell does not set it.
    const env = { ...userEnvironment(), ...extra } as NodeJS.ProcessEnv;
    execFile(file!, args, { cwd, env, timeout: 180_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
      resolve({ code, stdout, stderr: error && code === -1 ? `${stderr}\n${error.message}` : stderr });
    });
  });
}

type Decision = { id: string; option_ids: string[]; probabilities: number[] };

/** The decisions of the answer a snippet printed: stdout must be exactly one JSON document, the endpoint's body. */
function printedDecisions(stdout: string): Decision[] {
  const body = JSON.parse(stdout) as { result?: Decision; results?: Decision[] };
  const decisions = body.result ? [body.result] : (body.results ?? []);
  return decisions.map(({ id, option_ids, probabilities }) => ({ id, option_ids, probabilities }));
}

/**
 * A scratch folder inside the repository, so that the TypeScript snippet's imports resolve from its node_modules,
 * with a package.json of its own as a new project has (`npm init`): CommonJS, not the repository's ES modules.
 */
function scratchFolder(testInfo: TestInfo): string {
  const parent = path.join(repoRoot, "test-results");
  fs.mkdirSync(parent, { recursive: true });
  const folder = fs.mkdtempSync(path.join(parent, "playground-snippets-"));
  fs.writeFileSync(path.join(folder, "package.json"), `${JSON.stringify({ name: "snippets", private: true })}\n`);
  testInfo.attachments.push({ name: "snippet folder", contentType: "text/plain", body: Buffer.from(folder) });
  return folder;
}

/**
 * Runs the example in the playground, reads its meters, then runs each language's snippet as shown and compares
 * the probabilities it printed with the meters, exactly: the meters carry the page's raw numbers (aria-valuenow),
 * and the snippets print the endpoint's JSON, so both are the same doubles when the model answers the same.
 */
async function snippetsPrintTheMeters(
  playground: PlaygroundPage,
  endpoint: string,
  example: string,
  decisionIds: string[],
  testInfo: TestInfo,
): Promise<void> {
  const page = playground.page;
  await playground.goto(endpoint);
  await playground.loadExample(example);
  await playground.run();
  const shown = new Map<string, Meter[]>();
  for (const id of decisionIds) shown.set(id, await playground.meters(id));

  const unavailable = pythonUnavailable();
  const required = process.env.PYTHON_TESTS === "required";
  const folder = scratchFolder(testInfo);
  for (const language of languages) {
    if (language.key !== "typescript" && unavailable) {
      expect(required, `PYTHON_TESTS=required, but the ${language.tab} snippet cannot run: ${unavailable}`).toBe(false);
      console.warn(`${language.tab} snippet: skipped: ${unavailable}`);
      testInfo.annotations.push({ type: "skipped", description: `${language.tab}: ${unavailable}` });
      continue;
    }
    await page.getByRole("tablist", { name: "Snippet language" }).getByRole("tab", { name: language.tab }).click();
    const code = page.getByLabel("Request snippet code").locator("pre");
    await expect(code).toContainText(endpoint);
    const text = (await code.textContent()) ?? "";
    const file = path.join(folder, language.file);
    fs.writeFileSync(file, text);
    const run = await runSnippet(language.command(file));
    const context = `${language.tab} snippet (${file}) exited ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
    expect.soft(run.code, context).toBe(0);
    let printed: Decision[] = [];
    try {
      printed = printedDecisions(run.stdout);
    } catch (error) {
      expect.soft(`${(error as Error).message}`, `${context}\nits stdout is not one JSON document`).toBe("");
      continue;
    }
    expect
      .soft(
        printed.map((decision) => decision.id),
        context,
      )
      .toEqual(decisionIds);
    for (const decision of printed) {
      const meters = shown.get(decision.id) ?? [];
      expect
        .soft(decision.option_ids, `${language.tab}: ${decision.id}'s options`)
        .toEqual(meters.map((m) => m.option));
      expect
        .soft(decision.probabilities, `${language.tab}: ${decision.id}'s probabilities, as the page's meters`)
        .toEqual(meters.map((m) => m.value));
    }
  }
  // Kept (and attached) when something failed, so the snippets can be run again by hand.
  if (testInfo.errors.length === 0) fs.rmSync(folder, { recursive: true, force: true });
}

test("the model is packaged for both endpoints", async ({ page }) => {
  const builds = new BuildsPage(page);
  await builds.goto();
  // The trained model's preset when `npm run models:fetch` cached it: its probabilities are not the generated
  // model's near-uniform ones, so a snippet printing rounded or reordered numbers would show.
  const trained = readTrainedModelPin();
  if (trained) await builds.packagePreset(trained.label);
  else await builds.packageCustomModel(readModelPin());
  const build = new BuildDetailPage(page);
  await build.waitForSuccess(180_000);
  await build.deployThis();
  deployQuery = new URL(page.url()).search;
  expect(deployQuery).toContain("model=s3");
});

test("a real-time endpoint's TypeScript, Python and CLI snippets print the page's probabilities", async ({
  page,
}, testInfo) => {
  test.setTimeout(600_000);
  const deploy = new DeployPage(page);
  await deploy.goto(deployQuery);
  await deploy.fill(cpuAdapterChoices(realTimeEndpoint));
  await deploy.reviewAndDeploy();
  const endpoints = new EndpointsPage(page);
  await endpoints.goto();
  await endpoints.waitForStatus(realTimeEndpoint, "InService");
  // Two decisions in one request: the answer nests its probabilities one level deeper ({results: [...]}).
  await snippetsPrintTheMeters(
    new PlaygroundPage(page),
    realTimeEndpoint,
    "extraction",
    ["has-invoice-number", "has-customer-id"],
    testInfo,
  );
});

/** The official SDK snippets of a protocol, which call the console's gateway with a key in DECISION_KEY. */
const sdkSnippets = [
  { protocol: "System One (TypeSafe)", tab: "Python typesafe-sdk", file: "snippet_typesafe.py", python: true },
  { protocol: "OpenAI Decisions", tab: "Python openai", file: "snippet_openai.py", python: true },
  { protocol: "OpenAI Decisions", tab: "TypeScript openai", file: "snippet_openai.ts", python: false },
] as const;

/** A question's probabilities by option as an SDK snippet printed them: System One keys answers by id, OpenAI lists them. */
function printedProbabilities(stdout: string, question: string): Map<string, number> {
  const body = JSON.parse(stdout) as { answers: unknown };
  if (Array.isArray(body.answers)) {
    const answer = (body.answers as { name: string; probabilities: { value: string; probability: number }[] }[]).find(
      (candidate) => candidate.name === question,
    );
    return new Map(answer?.probabilities.map((entry) => [String(entry.value), entry.probability]));
  }
  const answers = body.answers as Record<string, { probabilities: Record<string, number> }>;
  return new Map(Object.entries(answers[question]?.probabilities ?? {}));
}

test("in System One and OpenAI Decisions, the typesafe-sdk and openai snippets print the page's probabilities through the gateway", async ({
  page,
}, testInfo) => {
  test.setTimeout(600_000);
  const keys = new KeysPage(page);
  await keys.goto();
  const secret = await keys.create({ name: "e2e-playground-snippets", endpoints: realTimeEndpoint });
  const unavailable = pythonUnavailable();
  const folder = scratchFolder(testInfo);
  const playground = new PlaygroundPage(page);
  const questions = ["has-invoice-number", "has-customer-id"];
  for (const snippet of sdkSnippets) {
    if (snippet.python && unavailable) {
      expect(process.env.PYTHON_TESTS === "required", `the ${snippet.tab} snippet cannot run: ${unavailable}`).toBe(
        false,
      );
      testInfo.annotations.push({ type: "skipped", description: `${snippet.tab}: ${unavailable}` });
      continue;
    }
    await playground.goto(realTimeEndpoint);
    await playground.loadExample("extraction");
    await playground.chooseProtocol(snippet.protocol);
    await playground.run();
    const shown = new Map<string, Meter[]>();
    for (const question of questions) shown.set(question, await playground.questionMeters(question));
    await page.getByRole("tablist", { name: "Snippet language" }).getByRole("tab", { name: snippet.tab }).click();
    const text = (await page.getByLabel("Request snippet code").locator("pre").textContent()) ?? "";
    expect(text).toContain(new URL(page.url()).origin);
    const file = path.join(folder, snippet.file);
    fs.writeFileSync(file, text);
    const command = snippet.python
      ? { argv: [path.join(venvBin, "python"), file], cwd: folder }
      : { argv: ["npx", "tsx", file], cwd: repoRoot };
    const run = await runSnippet(command, { DECISION_KEY: secret });
    const context = `${snippet.tab} snippet (${file}) exited ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
    expect(run.code, context).toBe(0);
    for (const question of questions) {
      const meters = shown.get(question) ?? [];
      const printed = printedProbabilities(run.stdout, question);
      expect
        .soft(
          meters.map((meter) => printed.get(meter.option)),
          `${snippet.tab}: ${question}'s probabilities, as the page's meters`,
        )
        .toEqual(meters.map((meter) => meter.value));
    }
  }
  if (testInfo.errors.length === 0) fs.rmSync(folder, { recursive: true, force: true });
});

test("an asynchronous endpoint's snippets upload the request, invoke, poll S3 and print the page's probabilities", async ({
  page,
}, testInfo) => {
  test.setTimeout(600_000);
  const deploy = new DeployPage(page);
  await deploy.goto(deployQuery);
  await deploy.fill(cpuAdapterChoices(asyncEndpoint));
  await deploy.chooseAsynchronous();
  await deploy.reviewAndDeploy();
  const endpoints = new EndpointsPage(page);
  await endpoints.goto();
  await endpoints.waitForStatus(asyncEndpoint, "InService");
  const playground = new PlaygroundPage(page);
  await snippetsPrintTheMeters(playground, asyncEndpoint, "routing", ["route-ticket"], testInfo);
  await expect(page.getByLabel("Request snippet code")).toContainText("invoke-endpoint-async");
});

test("the snippets' endpoints are deleted", async ({ page }) => {
  await deleteEndpoint(page, realTimeEndpoint);
  await deleteEndpoint(page, asyncEndpoint);
});

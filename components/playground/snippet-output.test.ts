import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { asyncSnippet } from "./async-snippets.ts";
import { type SnippetLanguage, snippet } from "./snippets.ts";

/**
 * What each snippet prints, run with stand-ins for the SDKs and the CLI that answer as AWS's do (the CLI's own
 * chatter included: invoke-endpoint's metadata, `upload:`/`download:` lines without --quiet). Its stdout must be
 * the endpoint's answer as one JSON document, whatever its depth. tests/e2e/playground-snippets.spec.ts runs the
 * same snippets with the real boto3, CLI and @aws-sdk clients against local mode.
 */
const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules", ".bin", "tsx");
const python = path.join(root, ".venv-tests", "bin", "python");
const required = process.env.PYTHON_TESTS === "required";
const pythonReady = fs.existsSync(python) && !fs.existsSync(path.join(root, ".venv-tests", "SKIPPED"));
if (!pythonReady) {
  const skipped = path.join(root, ".venv-tests", "SKIPPED");
  const reason = fs.existsSync(skipped) ? fs.readFileSync(skipped, "utf8").trim() : "no .venv-tests (npm run py:env)";
  console.warn(`Python snippet output: skipped: ${reason}`);
}

// Nested as a two-decision answer is: util.inspect would print the probabilities as [Array].
const answer = {
  results: [
    { id: "first", option_ids: ["yes", "no"], probabilities: [0.1234567890123456, 0.8765432109876544] },
    { id: "second", option_ids: ["yes", "no"], probabilities: [1e-7, 0.9999999] },
  ],
  timing: { batch_size: 2 },
};
const body = { decisions: [{ id: "first", state: "s", question: "q", options: [] }] };
const output = "s3://stub-bucket/async/dc-a/out/x.out";
const failure = "s3://stub-bucket/async/dc-a/failed/x-error.out";

const stubs = fs.mkdtempSync(path.join(os.tmpdir(), "snippet-output-"));
afterAll(() => fs.rmSync(stubs, { recursive: true, force: true }));

function write(file: string, text: string, mode = 0o644) {
  fs.mkdirSync(path.dirname(path.join(stubs, file)), { recursive: true });
  fs.writeFileSync(path.join(stubs, file), text, { mode });
}

function esmPackage(name: string, source: string) {
  write(`node_modules/${name}/package.json`, JSON.stringify({ name, type: "module", exports: "./index.js" }));
  write(`node_modules/${name}/index.js`, source);
}

esmPackage(
  "@aws-sdk/client-sagemaker-runtime",
  `class Command { constructor(input) { this.input = input; } }
export class InvokeEndpointCommand extends Command {}
export class InvokeEndpointAsyncCommand extends Command {}
export class ModelError extends Error {}
export class SageMakerRuntimeClient {
  async send(command) {
    if (command instanceof InvokeEndpointAsyncCommand) return { OutputLocation: "${output}", FailureLocation: "${failure}" };
    return { Body: new TextEncoder().encode(process.env.STUB_ANSWER) };
  }
}
`,
);
esmPackage(
  "@aws-sdk/client-s3",
  `class Command { constructor(input) { this.input = input; } }
export class PutObjectCommand extends Command {}
export class ListObjectsV2Command extends Command {}
export class GetObjectCommand extends Command {}
export class S3Client {
  async send(command) {
    if (command instanceof ListObjectsV2Command) {
      return "s3://" + command.input.Bucket + "/" + command.input.Prefix === "${output}" ? { Contents: [{ Key: command.input.Prefix }] } : {};
    }
    if (command instanceof GetObjectCommand) return { Body: { transformToString: async () => process.env.STUB_ANSWER } };
    return {};
  }
}
`,
);
write(
  "python/boto3/__init__.py",
  `import io, os

class _Runtime:
    class exceptions:
        class ModelError(Exception):
            pass

    def invoke_endpoint(self, **request):
        return {"Body": io.BytesIO(os.environ["STUB_ANSWER"].encode())}

    def invoke_endpoint_async(self, **request):
        return {"OutputLocation": "${output}", "FailureLocation": "${failure}"}

class _S3:
    def put_object(self, **request):
        return {}

    def list_objects_v2(self, Bucket, Prefix, MaxKeys):
        return {"Contents": [{"Key": Prefix}]} if f"s3://{Bucket}/{Prefix}" == "${output}" else {}

    def get_object(self, Bucket, Key):
        return {"Body": io.BytesIO(os.environ["STUB_ANSWER"].encode())}

def client(name):
    return _Runtime() if name == "sagemaker-runtime" else _S3()
`,
);
write(
  "bin/aws",
  `#!/usr/bin/env bash
# The AWS CLI's stdout for the calls the snippets make.
quiet=no; for arg in "$@"; do [ "$arg" = --quiet ] && quiet=yes; done
case "$1 $2" in
  "sagemaker-runtime invoke-endpoint")
    printf '%s' "$STUB_ANSWER" >"\${@: -1}"
    printf '{\\n    "ContentType": "application/json",\\n    "InvokedProductionVariant": "AllTraffic"\\n}\\n' ;;
  "sagemaker-runtime invoke-endpoint-async") printf '%s\\t%s\\n' "${output}" "${failure}" ;;
  "s3api list-objects-v2")
    while [ $# -gt 0 ]; do case "$1" in --bucket) bucket=$2 ;; --prefix) prefix=$2 ;; esac; shift; done
    if [ "s3://$bucket/$prefix" = "${output}" ]; then echo "$prefix"; else echo None; fi ;;
  "s3 cp")
    if [ "$3" = "${output}" ]; then
      if [ "$4" = - ]; then printf '%s' "$STUB_ANSWER"; else printf '%s' "$STUB_ANSWER" >"$4"; fi
      [ $quiet = no ] && [ "$4" != - ] && echo "download: $3 to $4"
    else
      [ $quiet = no ] && echo "upload: $3 to $4"
    fi ;;
  *) echo "stub aws: unexpected $*" >&2; exit 2 ;;
esac
exit 0
`,
  0o755,
);

function run(language: SnippetLanguage, text: string) {
  const folder = fs.mkdtempSync(path.join(stubs, `${language}-`));
  const file = path.join(folder, { typescript: "snippet.ts", python: "snippet.py", cli: "snippet.sh" }[language]);
  fs.writeFileSync(file, text);
  const command = { typescript: [tsx, file], python: [python, file], cli: ["bash", file] }[language];
  const result = spawnSync(command[0]!, command.slice(1), {
    cwd: folder,
    encoding: "utf8",
    timeout: 20_000,
    env: {
      PATH: `${path.join(stubs, "bin")}${path.delimiter}${process.env.PATH ?? ""}`,
      PYTHONPATH: path.join(stubs, "python"),
      STUB_ANSWER: JSON.stringify(answer),
      // Next's types make NODE_ENV required in ProcessEnv; the snippets run without it.
    } as Record<string, string> as NodeJS.ProcessEnv,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const cases: { language: SnippetLanguage; ready: boolean }[] = [
  { language: "typescript", ready: true },
  { language: "python", ready: pythonReady },
  { language: "cli", ready: true },
];

describe("what a request snippet prints", () => {
  for (const { language, ready } of cases) {
    it.skipIf(!ready && !(language === "python" && required))(
      `${language}, real-time: the answer as one JSON document`,
      () => {
        const printed = run(language, snippet(language, "dc-a", body));
        expect(printed.stderr).toBe("");
        expect(JSON.parse(printed.stdout)).toEqual(answer);
      },
    );
    it.skipIf(!ready && !(language === "python" && required))(
      `${language}, asynchronous: the answer read from S3 as one JSON document`,
      () => {
        const printed = run(language, asyncSnippet(language, "dc-a", body, "stub-bucket"));
        expect(printed.stderr).toBe("");
        expect(JSON.parse(printed.stdout)).toEqual(answer);
      },
    );
  }
});

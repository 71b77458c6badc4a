import ts from "typescript";
import { describe, expect, it } from "vitest";
import { asyncRequestBucket, asyncSnippet, BUCKET_PLACEHOLDER } from "./async-snippets.ts";

const body = { decision: { id: "d", state: "s", question: "q", options: [] } };

describe("snippets for an asynchronous endpoint", () => {
  it("write the request under async/<endpoint>/in/, call InvokeEndpointAsync and poll the output location", () => {
    const typescript = asyncSnippet("typescript", "dc-a", body, "b");
    expect(typescript).toContain("new InvokeEndpointAsyncCommand");
    expect(typescript).toContain("async/dc-a/in/");
    expect(typescript).toContain("queued.OutputLocation");
    expect(asyncSnippet("python", "dc-a", body, "b")).toContain(
      'runtime.invoke_endpoint_async(\n    EndpointName="dc-a"',
    );
    expect(asyncSnippet("cli", "dc-a", body, "b")).toContain("aws sagemaker-runtime invoke-endpoint-async");
  });

  it("look for a result with a one-key listing before reading it, never by catching NoSuchKey", () => {
    // Without s3:ListBucket, S3 answers GetObject of a missing key with 403 AccessDenied: a read cannot say "pending".
    for (const language of ["typescript", "python", "cli"] as const) {
      const snippet = asyncSnippet(language, "dc-a", body, "b");
      expect(snippet).not.toContain("NoSuchKey");
      expect(snippet).toMatch(/ListObjectsV2Command|list_objects_v2|list-objects-v2/);
      expect(snippet).toMatch(/FailureLocation/);
    }
  });

  it("write the request to the bucket of the endpoint's output path, the artifact bucket, not a placeholder", () => {
    const bucket = asyncRequestBucket("s3://decision-console-local/async/dc-a/out/");
    expect(bucket).toBe("decision-console-local");
    expect(asyncSnippet("python", "dc-a", body, bucket)).toContain('bucket = "decision-console-local"');
    expect(asyncSnippet("typescript", "dc-a", body, bucket)).toContain('const bucket = "decision-console-local";');
    expect(asyncSnippet("cli", "dc-a", body, bucket)).toMatch(/^BUCKET=decision-console-local\n/);
  });

  it("name the placeholder when the output path holds no valid bucket, never put it in a shell line", () => {
    expect(asyncRequestBucket(null)).toBe(BUCKET_PLACEHOLDER);
    expect(asyncRequestBucket("https://example.com/out/")).toBe(BUCKET_PLACEHOLDER);
    expect(asyncRequestBucket("s3://b$(touch x)/out/")).toBe(BUCKET_PLACEHOLDER);
    expect(asyncRequestBucket("s3://Upper/out/")).toBe(BUCKET_PLACEHOLDER);
    expect(asyncRequestBucket("s3://my-bucket")).toBe("my-bucket");
  });

  it("give a CLI script that needs no uuidgen (not on every Linux)", () => {
    expect(asyncSnippet("cli", "dc-a", body, "b")).not.toMatch(/\$\(uuidgen/);
  });

  it("give TypeScript that parses", () => {
    const { diagnostics } = ts.transpileModule(asyncSnippet("typescript", "dc-a", body, "b"), {
      reportDiagnostics: true,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    expect(diagnostics?.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
  });
});

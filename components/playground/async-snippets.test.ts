import ts from "typescript";
import { describe, expect, it } from "vitest";
import { asyncSnippet } from "./async-snippets.ts";

const body = { decision: { id: "d", state: "s", question: "q", options: [] } };

describe("snippets for an asynchronous endpoint", () => {
  it("write the request under async/<endpoint>/in/, call InvokeEndpointAsync and poll the output location", () => {
    const typescript = asyncSnippet("typescript", "dc-a", body);
    expect(typescript).toContain("new InvokeEndpointAsyncCommand");
    expect(typescript).toContain("async/dc-a/in/");
    expect(typescript).toContain("queued.OutputLocation");
    expect(asyncSnippet("python", "dc-a", body)).toContain('runtime.invoke_endpoint_async(\n    EndpointName="dc-a"');
    expect(asyncSnippet("cli", "dc-a", body)).toContain("aws sagemaker-runtime invoke-endpoint-async");
  });

  it("look for a result with a one-key listing before reading it, never by catching NoSuchKey", () => {
    // Without s3:ListBucket, S3 answers GetObject of a missing key with 403 AccessDenied: a read cannot say "pending".
    for (const language of ["typescript", "python", "cli"] as const) {
      const snippet = asyncSnippet(language, "dc-a", body);
      expect(snippet).not.toContain("NoSuchKey");
      expect(snippet).toMatch(/ListObjectsV2Command|list_objects_v2|list-objects-v2/);
      expect(snippet).toMatch(/FailureLocation/);
    }
  });

  it("give TypeScript that parses", () => {
    const { diagnostics } = ts.transpileModule(asyncSnippet("typescript", "dc-a", body), {
      reportDiagnostics: true,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    expect(diagnostics?.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
  });
});

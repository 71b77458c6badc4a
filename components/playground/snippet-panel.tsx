"use client";

import { useState } from "react";
import { Button } from "../ui/button.tsx";
import { Tabs } from "../ui/tabs.tsx";
import { asyncRequestBucket, asyncSnippet } from "./async-snippets.ts";
import { type SnippetLanguage, snippet } from "./snippets.ts";

const languages: { key: SnippetLanguage; label: string }[] = [
  { key: "typescript", label: "TypeScript SDK" },
  { key: "python", label: "Python boto3" },
  { key: "cli", label: "AWS CLI" },
];

export function SnippetPanel({
  endpoint,
  body,
  problem = null,
  asyncInference,
}: {
  endpoint: string;
  body: unknown;
  /** Why the editor holds no request now (JSON that does not parse): said instead of a snippet of another body. */
  problem?: string | null;
  /**
   * The endpoint's AsyncInferenceConfig when it takes InvokeEndpointAsync only: the snippet writes its request to
   * S3 (the output path's bucket) and polls the output location.
   */
  asyncInference: { outputPath: string | null } | null;
}) {
  const [language, setLanguage] = useState<SnippetLanguage>("typescript");
  const [copied, setCopied] = useState(false);
  const name = endpoint || "<endpoint-name>";
  if (problem !== null) {
    return (
      <p role="status" className="text-sm text-slate-800">
        No snippet while the request is not valid: {problem}
      </p>
    );
  }
  const text = asyncInference
    ? asyncSnippet(language, name, body, asyncRequestBucket(asyncInference.outputPath))
    : snippet(language, name, body);
  return (
    <div>
      <Tabs label="Snippet language" items={languages} active={language} onChange={setLanguage}>
        <div className="flex flex-col gap-2">
          <div className="flex justify-end">
            <Button
              variant="secondary"
              size="sm"
              onClick={async () => {
                await navigator.clipboard.writeText(text);
                setCopied(true);
                setTimeout(() => setCopied(false), 1500);
              }}
            >
              {copied ? "Copied" : "Copy snippet"}
            </Button>
          </div>
          <section
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable snippet must be reachable by keyboard
            tabIndex={0}
            aria-label="Request snippet code"
            className="max-h-96 overflow-auto rounded bg-slate-950 p-3"
          >
            <pre className="font-mono text-xs leading-5 text-slate-100">{text}</pre>
          </section>
        </div>
      </Tabs>
      <p aria-live="polite" className="sr-only">
        {copied ? "Snippet copied to the clipboard" : ""}
      </p>
    </div>
  );
}

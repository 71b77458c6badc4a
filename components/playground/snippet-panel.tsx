"use client";

import { useState, useSyncExternalStore } from "react";
import { Button } from "../ui/button.tsx";
import { Tabs } from "../ui/tabs.tsx";
import { asyncRequestBucket, asyncSnippet } from "./async-snippets.ts";
import type { RequestProtocol } from "./protocol-body.ts";
import { GATEWAY_KEY_VARIABLE, type SdkLanguage, sdkSnippet } from "./sdk-snippets.ts";
import { type SnippetLanguage, snippet } from "./snippets.ts";

type Language = SnippetLanguage | SdkLanguage;

const invokeLanguages: { key: SnippetLanguage; label: string }[] = [
  { key: "typescript", label: "TypeScript SDK" },
  { key: "python", label: "Python boto3" },
  { key: "cli", label: "AWS CLI" },
];

/** The official SDKs of each protocol, which call the console's gateway rather than InvokeEndpoint. */
const sdkLanguages: Record<RequestProtocol, { key: SdkLanguage; label: string }[]> = {
  decision: [],
  systemone: [{ key: "typesafe-python", label: "Python typesafe-sdk" }],
  "openai-decisions": [
    { key: "openai-python", label: "Python openai" },
    { key: "openai-typescript", label: "TypeScript openai" },
  ],
};

const isSdk = (language: Language): language is SdkLanguage =>
  Object.values(sdkLanguages).some((languages) => languages.some((candidate) => candidate.key === language));

const noSubscription = () => () => {};

export function SnippetPanel({
  endpoint,
  body,
  protocol,
  problem = null,
  asyncInference,
}: {
  endpoint: string;
  body: Record<string, unknown> | null;
  /** The body's protocol, when it is one with an official SDK of its own (null for chat or another body). */
  protocol: RequestProtocol | null;
  /** Why the editor holds no request now (JSON that does not parse): said instead of a snippet of another body. */
  problem?: string | null;
  /**
   * The endpoint's AsyncInferenceConfig when it takes InvokeEndpointAsync only: the snippet writes its request to
   * S3 (the output path's bucket) and polls the output location.
   */
  asyncInference: { outputPath: string | null } | null;
}) {
  const [chosen, setLanguage] = useState<Language>("typescript");
  const [copied, setCopied] = useState(false);
  // The gateway is served at the console's own origin; null while rendered on the server.
  const origin = useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => null,
  );
  const name = endpoint || "<endpoint-name>";
  const sdks = asyncInference || protocol === null ? [] : sdkLanguages[protocol];
  const languages = [...invokeLanguages, ...sdks];
  const language = languages.some((candidate) => candidate.key === chosen) ? chosen : "typescript";
  if (problem !== null || body === null) {
    return (
      <p role="status" className="text-sm text-slate-800">
        No snippet while the request is not valid: {problem}
      </p>
    );
  }
  const text = isSdk(language)
    ? sdkSnippet(language, origin ?? "<console origin>", name, body)
    : asyncInference
      ? asyncSnippet(language, name, body, asyncRequestBucket(asyncInference.outputPath))
      : snippet(language, name, body);
  return (
    <div>
      <Tabs label="Snippet language" items={languages} active={language} onChange={setLanguage}>
        <div className="flex flex-col gap-2">
          <div className="flex items-center justify-end gap-3">
            {isSdk(language) && (
              <p className="mr-auto text-xs text-slate-700">
                Through the console's gateway: set <code>{GATEWAY_KEY_VARIABLE}</code> to a key from the Keys page that
                may call this endpoint.
              </p>
            )}
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

"use client";

import { type FormEvent, useState } from "react";
import { createGatewayKeySchema } from "@/contract/gateway/keys.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { Button } from "../ui/button.tsx";
import { TextField } from "../ui/field.tsx";
import { useCreateGatewayKey } from "./gateway-queries.ts";
import { gatewaySnippets } from "./gateway-snippets.ts";

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);

/** `alias=endpoint` pairs, separated by commas or spaces. */
const aliasesOf = (text: string) =>
  Object.fromEntries(list(text).map((pair) => pair.split("=", 2) as [string, string]));

/** Creates a key and shows its secret, once, with the snippets that use it. */
export function CreateKeyForm() {
  const create = useCreateGatewayKey();
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const days = Number(form.get("expiresInDays") || 0);
    const parsed = createGatewayKeySchema.safeParse({
      name: String(form.get("name") ?? ""),
      endpoints: list(String(form.get("endpoints") ?? "")),
      aliases: aliasesOf(String(form.get("aliases") ?? "")),
      requestsPerMinute: Number(form.get("requestsPerMinute")),
      tokensPerMinute: Number(form.get("tokensPerMinute")),
      expiresAt: days > 0 ? new Date(Date.now() + days * 86_400_000).toISOString() : null,
    });
    if (!parsed.success) {
      setProblem(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
      return;
    }
    setProblem(null);
    create.mutate(parsed.data);
  };
  const created = create.data;
  const model = created ? (Object.keys(created.key.aliases)[0] ?? created.key.endpoints[0]!.replace(/\*$/, "")) : "";
  const snippets = created ? gatewaySnippets(window.location.origin, created.secret, model) : null;
  return (
    <form onSubmit={submit} aria-label="Create an API key" className="grid gap-3 sm:grid-cols-2">
      <TextField label="Name" name="name" required />
      <TextField label="Endpoints" name="endpoints" hint="Endpoint names, or prefixes ending in *" required />
      <TextField label="Aliases" name="aliases" hint="model=endpoint pairs the key's callers may name" />
      <TextField label="Requests per minute" name="requestsPerMinute" type="number" defaultValue={60} min={1} />
      <TextField label="Tokens per minute" name="tokensPerMinute" type="number" defaultValue={100000} min={1} />
      <TextField label="Expires in days" name="expiresInDays" type="number" hint="0: never" defaultValue={90} min={0} />
      <div className="sm:col-span-2">
        <Button type="submit" disabled={create.isPending}>
          Create key
        </Button>
      </div>
      {problem && <p className="text-sm text-red-700 sm:col-span-2">{problem}</p>}
      {create.error && <ErrorAlert error={create.error} title="The key was not created" />}
      {created && snippets && (
        <section aria-label="New key" className="space-y-2 sm:col-span-2">
          <p className="text-sm">
            The key <strong>{created.key.name}</strong>; copy it now, it is not shown again:
          </p>
          <code data-testid="new-key-secret" className="block rounded bg-slate-100 p-2 text-sm break-all">
            {created.secret}
          </code>
          <h3 className="text-sm font-semibold">typesafe-sdk (System One)</h3>
          <pre className="overflow-x-auto rounded bg-slate-100 p-2 text-xs">{snippets.typesafe}</pre>
          <h3 className="text-sm font-semibold">openai (Decisions)</h3>
          <pre className="overflow-x-auto rounded bg-slate-100 p-2 text-xs">{snippets.openai}</pre>
        </section>
      )}
    </form>
  );
}

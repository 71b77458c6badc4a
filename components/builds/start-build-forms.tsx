"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ErrorAlert } from "../api/error-text.tsx";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { SelectField, TextField } from "../ui/field.tsx";
import { fileSize } from "./build-format.ts";
import { buildPage, useModelPresets, useStartBuild } from "./build-queries.ts";

const custom = "custom";

export function StartModelBuild() {
  const presets = useModelPresets();
  const start = useStartBuild();
  const router = useRouter();
  const [choice, setChoice] = useState("");
  const [repo, setRepo] = useState("");
  const [revision, setRevision] = useState("");
  const [file, setFile] = useState("");
  const [sha256, setSha256] = useState("");
  const preset = presets.data?.presets.find((candidate) => candidate.id === choice);
  const selected = choice === "" ? (presets.data?.presets[0]?.id ?? custom) : choice;
  const active = presets.data?.presets.find((candidate) => candidate.id === selected) ?? preset;
  return (
    <Card title="Package a model">
      <form
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          const request =
            selected !== custom && active
              ? {
                  kind: "model" as const,
                  gguf: {
                    repo: active.gguf.repo,
                    revision: active.gguf.revision,
                    file: active.gguf.file,
                    sha256: active.gguf.sha256,
                  },
                  ...(active.tokenizer ? { tokenizer: active.tokenizer } : {}),
                }
              : {
                  kind: "model" as const,
                  gguf: { repo: repo.trim(), revision: revision.trim(), file: file.trim(), sha256: sha256.trim() },
                };
          start.mutate(request, { onSuccess: (build) => router.push(buildPage(build.id)) });
        }}
      >
        {presets.error && <ErrorAlert title="Presets unavailable" error={presets.error} />}
        <SelectField label="Model" value={selected} onChange={(e) => setChoice(e.target.value)}>
          {presets.data?.presets.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.label}
            </option>
          ))}
          <option value={custom}>Custom pinned GGUF…</option>
        </SelectField>
        {selected !== custom && active ? (
          <dl className="grid grid-cols-[max-content_1fr] gap-x-3 text-xs">
            <dt className="text-slate-700">Repository</dt>
            <dd className="font-mono">{active.gguf.repo}</dd>
            <dt className="text-slate-700">Revision</dt>
            <dd className="break-all font-mono">{active.gguf.revision}</dd>
            <dt className="text-slate-700">File</dt>
            <dd className="font-mono">{active.gguf.file}</dd>
            <dt className="text-slate-700">sha256</dt>
            <dd className="break-all font-mono">{active.gguf.sha256}</dd>
            <dt className="text-slate-700">Size</dt>
            <dd>{fileSize(active.gguf.bytes)}</dd>
            <dt className="text-slate-700">Notes</dt>
            <dd>{active.notes}</dd>
          </dl>
        ) : (
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField
              label="Repository (owner/name)"
              required
              value={repo}
              onChange={(e) => setRepo(e.target.value)}
            />
            <TextField
              label="Revision (40-hex commit)"
              required
              value={revision}
              onChange={(e) => setRevision(e.target.value)}
            />
            <TextField label="GGUF file" required value={file} onChange={(e) => setFile(e.target.value)} />
            <TextField label="sha256 of the file" required value={sha256} onChange={(e) => setSha256(e.target.value)} />
          </div>
        )}
        {start.error && <ErrorAlert title="Build not started" error={start.error} />}
        <div>
          <Button type="submit" disabled={start.isPending}>
            {start.isPending ? "Starting…" : "Start model build"}
          </Button>
        </div>
      </form>
    </Card>
  );
}

export function StartImageBuild() {
  const start = useStartBuild();
  const router = useRouter();
  const [variant, setVariant] = useState<"cpu" | "cuda">("cpu");
  return (
    <Card title="Build the adapter image">
      <form
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          start.mutate({ kind: "image", variant }, { onSuccess: (build) => router.push(buildPage(build.id)) });
        }}
      >
        <SelectField label="Variant" value={variant} onChange={(e) => setVariant(e.target.value as "cpu" | "cuda")}>
          <option value="cpu">CPU</option>
          <option value="cuda">CUDA</option>
        </SelectField>
        {start.error && <ErrorAlert title="Build not started" error={start.error} />}
        <div>
          <Button type="submit" disabled={start.isPending}>
            {start.isPending ? "Starting…" : "Start image build"}
          </Button>
        </div>
      </form>
    </Card>
  );
}

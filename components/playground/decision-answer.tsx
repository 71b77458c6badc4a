import type { DecisionResult, ModelMetadata, Timing } from "@decision-console/adapter/contract";
import { Badge } from "../ui/badge.tsx";
import { Table, TableBody, TableHead } from "../ui/table.tsx";
import { ProbabilityBars } from "./probability-bars.tsx";

function argmaxOf(probabilities: number[]): number {
  return probabilities.reduce((best, p, index) => (p > (probabilities[best] ?? -1) ? index : best), 0);
}

export function DecisionAnswer({ result, threshold }: { result: DecisionResult; threshold: number }) {
  const best = argmaxOf(result.probabilities);
  const bestId = result.option_ids[best] ?? "?";
  const bestP = result.probabilities[best] ?? 0;
  const act = bestP >= threshold;
  return (
    <section
      aria-label={`Answer for ${result.id}`}
      className="flex flex-col gap-3 rounded-md border border-slate-200 p-3"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold">{result.id}</h3>
        <p className="text-sm" data-testid="application-action">
          {act ? (
            <Badge tone="success">Act: {bestId}</Badge>
          ) : (
            <Badge tone="warning">Fall back: {(bestP * 100).toFixed(1)}% is below the threshold</Badge>
          )}
        </p>
      </div>
      <ProbabilityBars
        label={`Option probabilities for ${result.id}`}
        options={result.option_ids}
        probabilities={result.probabilities}
        threshold={threshold}
      />
      <details className="text-sm">
        <summary className="cursor-pointer font-medium">Logits and prompt</summary>
        <Table caption={`Option logits of ${result.id}`} size="xs" compact fit frameClassName="mt-2">
          <TableHead plain>
            <th scope="col">Option</th>
            <th scope="col">Logit</th>
            <th scope="col">Token id</th>
          </TableHead>
          <TableBody divided={false}>
            {result.option_ids.map((id, index) => (
              <tr key={id} className="font-mono">
                <td>{id}</td>
                <td>{result.option_logits[index]?.toFixed(4)}</td>
                <td>{result.answer_token_ids[index]}</td>
              </tr>
            ))}
          </TableBody>
        </Table>
        <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-3 text-xs">
          <dt className="text-slate-700">Allowed token mass</dt>
          <dd>{result.allowed_token_mass.toFixed(4)}</dd>
          <dt className="text-slate-700">Input tokens</dt>
          <dd>{result.input_tokens}</dd>
          <dt className="text-slate-700">Prompt sha256</dt>
          <dd className="break-all font-mono">{result.prompt_sha256}</dd>
          <dt className="text-slate-700">Prompt version</dt>
          <dd>{result.prompt_version}</dd>
          <dt className="text-slate-700">Temperature</dt>
          <dd>{result.temperature}</dd>
          <dt className="text-slate-700">Forward</dt>
          <dd>{(result.forward_seconds * 1000).toFixed(1)} ms</dd>
        </dl>
      </details>
    </section>
  );
}

export function TimingList({ timing }: { timing: Timing }) {
  const ms = (seconds: number) => `${(seconds * 1000).toFixed(1)} ms`;
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-3 text-xs">
      <dt className="text-slate-700">Batch size</dt>
      <dd>{timing.batch_size}</dd>
      <dt className="text-slate-700">Prefix tokens</dt>
      <dd>
        {timing.prefix_tokens}
        {timing.prefix_reused ? " (reused)" : ""}
      </dd>
      <dt className="text-slate-700">Prefill</dt>
      <dd>{ms(timing.prefill_seconds)}</dd>
      <dt className="text-slate-700">Suffix forward</dt>
      <dd>{ms(timing.suffix_forward_seconds)}</dd>
      {timing.queue_seconds !== undefined && (
        <>
          <dt className="text-slate-700">Queue</dt>
          <dd>{ms(timing.queue_seconds)}</dd>
        </>
      )}
      <dt className="text-slate-700">Total (in the container)</dt>
      <dd>{ms(timing.total_seconds)}</dd>
      <dt className="text-slate-700">Token budget per decision</dt>
      <dd>{timing.max_tokens_per_decision}</dd>
    </dl>
  );
}

export function ModelPins({ model }: { model: ModelMetadata }) {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-3 text-xs">
      <dt className="text-slate-700">File</dt>
      <dd className="font-mono">{model.file}</dd>
      <dt className="text-slate-700">sha256</dt>
      <dd className="break-all font-mono">{model.sha256}</dd>
      {model.manifest?.gguf.repo && (
        <>
          <dt className="text-slate-700">Pinned</dt>
          <dd className="break-all font-mono">
            {model.manifest.gguf.repo}@{model.manifest.gguf.revision}
          </dd>
        </>
      )}
      <dt className="text-slate-700">Backend</dt>
      <dd>
        {model.backend}, {model.gpu_layers}/{model.total_layers} layers on GPU, {model.threads} threads
      </dd>
      <dt className="text-slate-700">Context</dt>
      <dd>
        {model.context_size} tokens, {model.parallel} parallel, template {model.chat_template}
      </dd>
    </dl>
  );
}

"use client";

import { useEffect, useState } from "react";
import { compressionOfModelData } from "@/contract/builds/builds.ts";
import { MAX_RESOURCE_NAME_LENGTH, nameRule } from "@/contract/endpoints/resource-name.ts";
import { hourlyPriceUsd } from "@/contract/pricing/prices.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { useConsoleSettings } from "../api/settings-queries.ts";
import { modelOutputLabel, modelOutputsOf } from "../builds/build-format.ts";
import { useBuilds, useModelPresets } from "../builds/build-queries.ts";
import { useDeploy, useEndpoint } from "../endpoints/endpoint-queries.ts";
import { ProblemSummary } from "../forms/problem-summary.tsx";
import { canSubmit, shownProblems } from "../forms/shown-problems.ts";
import { useFormTouch } from "../forms/use-form-touch.ts";
import { Alert } from "../ui/alert.tsx";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { SelectField, TextField } from "../ui/field.tsx";
import { RadioChoice } from "../ui/radio-choice.tsx";
import { type DeployField, formProblems, deployFieldLabels as labels } from "./deploy-problems.ts";
import { DeployProgress } from "./deploy-progress.tsx";
import {
  type DeployForm,
  type DeployPrefill,
  defaultConcurrency,
  deployFormFromEndpoint,
  deployRequestFrom,
  initialDeployForm,
  limitFields,
} from "./deploy-request.ts";
import { DeployReview } from "./deploy-review.tsx";
import { GpuPoolEditor } from "./gpu-pool-editor.tsx";
import { imageOptionLabel, useImages } from "./image-queries.ts";
import { ModelVersionCard } from "./model-version-card.tsx";

const instanceTypes = Object.keys(hourlyPriceUsd);

/** The form's keys that are fields of their own (the limits are fields one by one). */
const fieldKeys = new Set<string>(Object.keys(labels));
const isField = (key: keyof DeployForm): key is keyof DeployForm & DeployField => fieldKeys.has(key);
const cpuTypes = instanceTypes.filter((type) => !type.startsWith("ml.g"));
const gpuTypes = instanceTypes.filter((type) => type.startsWith("ml.g"));

type Step = "edit" | "review" | "progress";

/** Fills the form once from an existing endpoint (`?from=`), e.g. after an evaluation fitted a temperature. */
function PrefillFromEndpoint({
  name,
  temperature,
  onLoaded,
}: {
  name: string;
  temperature?: string;
  onLoaded: (form: DeployForm) => void;
}) {
  const endpoint = useEndpoint(name);
  const [applied, setApplied] = useState(false);
  useEffect(() => {
    if (endpoint.data && !applied) {
      setApplied(true);
      onLoaded(deployFormFromEndpoint(endpoint.data, temperature));
    }
  }, [endpoint.data, applied, onLoaded, temperature]);
  if (endpoint.error) return <ErrorAlert title={`Could not copy the settings of ${name}`} error={endpoint.error} />;
  if (applied) {
    return (
      <Alert title={`Settings copied from ${name}`} tone="info">
        Give the new deployment a name, check the settings and review.
      </Alert>
    );
  }
  return null;
}

export function DeployFormView({ prefill }: { prefill: DeployPrefill & { from?: string } }) {
  /** The prefix the console's IAM policy allows in names (CONSOLE_RESOURCE_PREFIX); null: any name. */
  const settings = useConsoleSettings().data;
  const namePrefix = settings?.resourceNamePrefix ?? null;
  const [form, setForm] = useState<DeployForm>(() => initialDeployForm(prefill));
  const [step, setStep] = useState<Step>("edit");
  /** Each field is checked as it is typed in; every one, with the summary, once "Review deployment" was tried. */
  const { touch, edit, submit } = useFormTouch<DeployField>();
  const problems = formProblems(form, namePrefix);
  const shown = shownProblems(problems, touch);
  const error = shown.fields;
  const deploy = useDeploy();
  const images = useImages();
  const builds = useBuilds();
  const modelOutputs = modelOutputsOf(builds.data?.builds);
  const presets = useModelPresets();
  const set = <K extends keyof DeployForm>(key: K, value: DeployForm[K]) => {
    if (isField(key)) edit(key);
    setForm((f) => ({ ...f, [key]: value }));
  };

  if (step === "progress") return <DeployProgress name={form.name.trim()} />;
  if (step === "review") {
    return (
      <DeployReview
        request={deployRequestFrom(form)}
        pending={deploy.isPending}
        error={deploy.error}
        onBack={() => setStep("edit")}
        onDeploy={() => deploy.mutate(deployRequestFrom(form), { onSuccess: () => setStep("progress") })}
      />
    );
  }
  return (
    <form
      className="flex flex-col gap-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
        if (canSubmit(problems)) setStep("review");
      }}
    >
      {prefill.from && <PrefillFromEndpoint name={prefill.from} temperature={prefill.temperature} onLoaded={setForm} />}
      <Card title="Endpoint">
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            label={labels.name}
            required
            error={error.name}
            value={form.name}
            onChange={(e) => set("name", e.target.value)}
            hint={`${namePrefix ? `Starts with "${namePrefix}", the prefix the console's IAM policy allows; ` : ""}${nameRule(MAX_RESOURCE_NAME_LENGTH)}. Also names the model and the endpoint configuration.`}
          />
          <TextField
            label={labels.instanceCount}
            type="number"
            min={1}
            max={20}
            error={error.instanceCount}
            value={form.instanceCount}
            onChange={(e) => set("instanceCount", e.target.value)}
          />
        </div>
      </Card>
      <ModelVersionCard form={form} setForm={setForm} prefillVersion={prefill.version} />
      {!form.modelVersionArn && (
        <>
          <Card title="Image">
            {images.error && <ErrorAlert title="Could not list images" error={images.error} />}
            <div className="grid gap-3">
              <SelectField
                label="Deployable image"
                value={images.data?.images.some((image) => image.imageUri === form.imageUri) ? form.imageUri : ""}
                onChange={(e) => {
                  const image = images.data?.images.find((candidate) => candidate.imageUri === e.target.value);
                  if (!image) return;
                  setForm((f) => ({ ...f, imageUri: image.imageUri, apiMode: image.apiMode }));
                }}
              >
                <option value="">{images.isPending ? "Loading images…" : "Choose an image by digest"}</option>
                {images.data?.images.map((image) => (
                  <option key={image.imageUri} value={image.imageUri}>
                    {imageOptionLabel(image)}
                  </option>
                ))}
              </SelectField>
              <TextField
                label={labels.imageUri}
                error={error.imageUri}
                value={form.imageUri}
                onChange={(e) => set("imageUri", e.target.value)}
                placeholder="<registry>/<repository>@sha256:<64 hex>"
                className="font-mono"
              />
              <SelectField
                label="API mode"
                value={form.apiMode}
                onChange={(e) => set("apiMode", e.target.value as DeployForm["apiMode"])}
                hint="Decision: the adapter (decisions, systemone and chat). Chat: a text-generation image such as the llama.cpp DLC."
              >
                <option value="decision">decision</option>
                <option value="chat">chat</option>
              </SelectField>
              {images.data?.images.some((image) => image.imageUri === form.imageUri && image.source === "dlc") && (
                <p className="text-xs text-slate-700">
                  The llama.cpp DLC serves chat only: llama-server&apos;s OpenAI chat completions at /invocations.
                  {settings?.mode === "local" &&
                    " In local mode its image is a stand-in: the adapter's chat API answers from the model in llama-server's request and response shape (no decision scoring, and only the ctx-size, threads, parallel and n-gpu-layers settings)."}
                </p>
              )}
              {images.data?.unresolved.map((item) => (
                <p key={item.reference} className="text-xs text-slate-700">
                  Not offered: {item.reference} ({item.reason})
                </p>
              ))}
            </div>
          </Card>
          <Card title="Model artifact">
            <div className="grid gap-3">
              <SelectField
                label="From a finished model build"
                value={
                  modelOutputs.some((build) => build.outputs.modelDataUrl === form.modelDataUrl)
                    ? form.modelDataUrl
                    : ""
                }
                onChange={(e) => {
                  const build = modelOutputs.find((candidate) => candidate.outputs.modelDataUrl === e.target.value);
                  if (!build?.outputs.modelDataUrl) return;
                  const url = build.outputs.modelDataUrl;
                  setForm((f) => ({
                    ...f,
                    modelDataUrl: url,
                    modelSha256: build.outputs.modelSha256 ?? "",
                    modelBytes: build.outputs.modelBytes === null ? "" : String(build.outputs.modelBytes),
                    compression: compressionOfModelData(url),
                  }));
                }}
              >
                <option value="">
                  {builds.isPending ? "Loading builds…" : "Choose a build output, or type an S3 URI below"}
                </option>
                {modelOutputs.map((build) => (
                  <option key={build.id} value={build.outputs.modelDataUrl ?? ""}>
                    {modelOutputLabel(build, presets.data?.presets)}
                  </option>
                ))}
              </SelectField>
              <TextField
                label={labels.modelDataUrl}
                error={error.modelDataUrl}
                value={form.modelDataUrl}
                onChange={(e) => {
                  edit("modelDataUrl");
                  setForm((f) => ({ ...f, modelDataUrl: e.target.value, modelBytes: "" }));
                }}
                placeholder="s3://bucket/models/model.tar.gz"
                className="font-mono"
              />
              <div className="grid gap-3 sm:grid-cols-2">
                <SelectField
                  label="Compression"
                  value={form.compression}
                  onChange={(e) => set("compression", e.target.value as DeployForm["compression"])}
                >
                  <option value="Gzip">Gzip (model.tar.gz)</option>
                  <option value="None">None (uncompressed S3 prefix)</option>
                </SelectField>
                <TextField
                  label={`${labels.modelSha256} (optional)`}
                  error={error.modelSha256}
                  value={form.modelSha256}
                  onChange={(e) => set("modelSha256", e.target.value)}
                  className="font-mono"
                />
              </div>
            </div>
          </Card>
        </>
      )}
      <Card title="Compute">
        <RadioChoice
          legend="Compute kind"
          name="compute-kind"
          value={form.computeKind}
          choices={[
            { value: "cpu", label: "Run on a CPU instance type" },
            { value: "gpu-pool", label: "Run on an ordered GPU instance pool" },
          ]}
          onChange={(kind) => set("computeKind", kind)}
        />
        {form.computeKind === "cpu" ? (
          <div className="grid gap-3 sm:grid-cols-2">
            <SelectField
              label={labels.cpuInstanceType}
              error={error.cpuInstanceType}
              value={form.cpuInstanceType}
              onChange={(e) => set("cpuInstanceType", e.target.value)}
            >
              {cpuTypes.map((type) => (
                <option key={type} value={type}>
                  {type} (${hourlyPriceUsd[type]}/h)
                </option>
              ))}
            </SelectField>
            <TextField
              label={labels.threads}
              type="number"
              min={1}
              max={256}
              error={error.threads}
              value={form.threads}
              onChange={(e) => set("threads", e.target.value)}
              hint="The sample uses 32 threads on ml.c6i.8xlarge."
            />
          </div>
        ) : (
          <div className="flex flex-col gap-3">
            <GpuPoolEditor
              pools={form.gpuPools}
              choices={gpuTypes}
              error={error.gpuPools}
              onChange={(pools) => set("gpuPools", pools)}
            />
            <div className="grid gap-3 sm:grid-cols-2">
              <TextField
                label={labels.gpuLayers}
                error={error.gpuLayers}
                value={form.gpuLayers}
                onChange={(e) => set("gpuLayers", e.target.value)}
                hint='"max" offloads every layer, which the adapter requires on CUDA.'
              />
              <TextField
                label={labels.provisioningTimeoutSeconds}
                type="number"
                min={300}
                max={3600}
                error={error.provisioningTimeoutSeconds}
                value={form.provisioningTimeoutSeconds}
                onChange={(e) => set("provisioningTimeoutSeconds", e.target.value)}
              />
            </div>
          </div>
        )}
      </Card>
      <Card title="Invocation">
        <RadioChoice
          legend="Invocation mode"
          name="invocation-mode"
          value={form.invocationMode}
          choices={[
            { value: "real-time", label: "Real-time: the caller waits for the answer" },
            { value: "asynchronous", label: "Asynchronous: requests queue, answers land in S3" },
          ]}
          onChange={(mode) => set("invocationMode", mode)}
        />
        {form.invocationMode === "asynchronous" && (
          <div className="grid gap-3 sm:grid-cols-3">
            <TextField
              label={labels.maxConcurrentInvocations}
              type="number"
              min={1}
              max={1000}
              error={error.maxConcurrentInvocations}
              placeholder={String(defaultConcurrency(form.computeKind))}
              value={form.maxConcurrentInvocations}
              onChange={(e) => set("maxConcurrentInvocations", e.target.value)}
              hint="MaxConcurrentInvocationsPerInstance; empty: the adapter's ADAPTER_PARALLEL."
            />
            <TextField
              label={`${labels.successTopic} (optional)`}
              error={error.successTopic}
              value={form.successTopic}
              onChange={(e) => set("successTopic", e.target.value)}
              placeholder="arn:aws:sns:<region>:<account>:<topic>"
              className="font-mono"
              hint={namePrefix ? `An SNS topic named with "${namePrefix}".` : "An SNS topic ARN."}
            />
            <TextField
              label={`${labels.errorTopic} (optional)`}
              error={error.errorTopic}
              value={form.errorTopic}
              onChange={(e) => set("errorTopic", e.target.value)}
              placeholder="arn:aws:sns:<region>:<account>:<topic>"
              className="font-mono"
            />
          </div>
        )}
        <div className="mt-3 grid gap-3 sm:grid-cols-3">
          <TextField
            label={`${labels.capturePercent} (optional)`}
            type="number"
            min={0}
            max={100}
            error={error.capturePercent}
            value={form.capturePercent}
            onChange={(e) => set("capturePercent", e.target.value)}
            hint="SageMaker data capture: this share of invocations, request and answer, is written as JSON Lines under data-capture/ of the artifact bucket. Empty: none."
          />
        </div>
      </Card>
      <Card title="Adapter limits">
        <p className="mb-3 text-sm text-slate-700">
          Leave empty to keep the adapter's default. Network isolation is always on.
        </p>
        <div className="grid gap-3 sm:grid-cols-3">
          {limitFields.map((field) => (
            <TextField
              key={field.key}
              label={labels[`limits.${field.key}`]}
              type="number"
              placeholder={String(field.defaultValue)}
              hint={field.env}
              error={error[`limits.${field.key}`]}
              value={form.limits[field.key]}
              onChange={(e) => {
                edit(`limits.${field.key}`);
                set("limits", { ...form.limits, [field.key]: e.target.value });
              }}
            />
          ))}
          <TextField
            label={labels.temperature}
            type="number"
            placeholder="1"
            error={error.temperature}
            value={form.temperature}
            onChange={(e) => set("temperature", e.target.value)}
            hint="SEMIF_TEMPERATURE: the softmax temperature; the evaluation page fits one from labelled decisions."
          />
        </div>
      </Card>
      <ProblemSummary title="Fix these before reviewing" problems={shown.summary} />
      <div>
        <Button type="submit">Review deployment</Button>
      </div>
    </form>
  );
}

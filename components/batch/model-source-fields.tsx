"use client";

import type { StartTransformJobInput } from "@/contract/batch/transform-jobs.ts";
import { batchCudaReason, batchModelDataReason, isBatchModelData } from "@/contract/batch/transform-limits.ts";
import type { DeployableImage } from "@/contract/images/images.ts";
import { modelOutputLabel, modelOutputsOf } from "../builds/build-format.ts";
import { useBuilds, useModelPresets } from "../builds/build-queries.ts";
import { useImages } from "../deploy/image-queries.ts";
import { shortDigest } from "../endpoints/endpoint-format.ts";
import { useEndpoints } from "../endpoints/endpoint-queries.ts";
import { SelectField } from "../ui/field.tsx";
import { RadioChoice } from "../ui/radio-choice.tsx";

export interface ModelSource {
  kind: "deployed" | "build";
  modelName: string;
  buildId: string;
  imageDigest: string;
}

export const noModelSource: ModelSource = { kind: "deployed", modelName: "", buildId: "", imageDigest: "" };

/** The request's model: a deployed model (the first one unless chosen), or a chosen build output and image; null until complete. */
export function modelSourceRequest(
  source: ModelSource,
  firstModel: string | undefined,
): Pick<StartTransformJobInput, "modelName" | "buildOutput"> | null {
  if (source.kind === "build") {
    return source.buildId && source.imageDigest
      ? { buildOutput: { buildId: source.buildId, imageDigest: source.imageDigest } }
      : null;
  }
  const modelName = source.modelName || firstModel;
  return modelName ? { modelName } : null;
}

function uncompressed(modelDataUrl: string | null): string {
  return modelDataUrl && !isBatchModelData(modelDataUrl) ? " — not usable for batch: uncompressed model data" : "";
}

function unusable(image: DeployableImage): string {
  if (image.variant === "cpu") return "";
  return image.variant === "cuda"
    ? " — not usable for batch: the CUDA 13 driver is not guaranteed"
    : " — not usable for batch: tagged neither cpu nor cuda";
}

/** Managed endpoints' models, the first of which is the default choice. */
export function useDeployedModels() {
  return (useEndpoints().data?.endpoints ?? []).filter((endpoint) => endpoint.managed);
}

/** Where a job's model comes from: a model the console deployed, or a model build's output plus an adapter image. */
export function ModelSourceFields({
  value,
  onChange,
}: {
  value: ModelSource;
  onChange: (source: ModelSource) => void;
}) {
  const models = useDeployedModels();
  const builds = useBuilds();
  const presets = useModelPresets();
  const images = useImages();
  const modelBuilds = modelOutputsOf(builds.data?.builds);
  const adapterImages = (images.data?.images ?? []).filter((image) => image.source === "ecr");
  const set = (change: Partial<ModelSource>) => onChange({ ...value, ...change });
  return (
    <div>
      <RadioChoice
        legend="Model source"
        name="model-source"
        value={value.kind}
        choices={[
          { value: "deployed", label: "Deployed model" },
          { value: "build", label: "Build output + image" },
        ]}
        onChange={(kind) => set({ kind })}
      />
      {value.kind === "deployed" ? (
        <SelectField
          label="Model"
          hint="The model of an endpoint the console deployed (it keeps the endpoint's name)."
          value={value.modelName}
          onChange={(e) => set({ modelName: e.target.value })}
        >
          {models.map((endpoint) => (
            <option key={endpoint.name} value={endpoint.name}>
              {endpoint.name} ({endpoint.status})
            </option>
          ))}
        </SelectField>
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          <SelectField
            label="Model build"
            hint={`A succeeded model-packaging build; the console creates a model named as the job from its output. ${batchModelDataReason}`}
            required
            value={value.buildId}
            onChange={(e) => set({ buildId: e.target.value })}
          >
            <option value="">{builds.isPending ? "Loading builds…" : "Choose a model build"}</option>
            {modelBuilds.map((build) => (
              <option key={build.id} value={build.id} disabled={!isBatchModelData(build.outputs.modelDataUrl ?? "")}>
                {modelOutputLabel(build, presets.data?.presets)}
                {uncompressed(build.outputs.modelDataUrl)}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Adapter image"
            hint={`Only cpu images run batch jobs; cuda images are listed but cannot be chosen. ${batchCudaReason}`}
            required
            value={value.imageDigest}
            onChange={(e) => set({ imageDigest: e.target.value })}
          >
            <option value="">{images.isPending ? "Loading images…" : "Choose an image"}</option>
            {adapterImages.map((image) => (
              <option key={image.digest} value={image.digest} disabled={image.variant !== "cpu"}>
                {shortDigest(image.digest)} {image.variant ?? "no variant"} ({image.tags.join(", ")}){unusable(image)}
              </option>
            ))}
          </SelectField>
        </div>
      )}
    </div>
  );
}

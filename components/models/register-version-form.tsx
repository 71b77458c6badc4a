"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { pinnedImageUri } from "@/contract/builds/pinned-image.ts";
import { type RegisterVersionInput, registerVersionSchema } from "@/contract/models/model-registry.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { useConsoleSettings } from "../api/settings-queries.ts";
import { modelOutputLabel, modelOutputsOf } from "../builds/build-format.ts";
import { useBuilds, useModelPresets } from "../builds/build-queries.ts";
import { useImages } from "../deploy/image-queries.ts";
import { useEndpoints } from "../endpoints/endpoint-queries.ts";
import { useEvaluations } from "../evaluate/evaluation-queries.ts";
import { ProblemSummary } from "../forms/problem-summary.tsx";
import { schemaProblems } from "../forms/schema-problems.ts";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { SelectField, TextField } from "../ui/field.tsx";
import { useModelGroups, useRegisterVersion, versionPage } from "./model-queries.ts";
import { endpointsServing, runOptionLabel, runsOfServingEndpoints } from "./version-format.ts";

type Field = "group" | "modelBuildId" | "imageUri" | "evaluationId" | "description" | "groupDescription";

const labels: Record<Field, string> = {
  group: "Model group",
  groupDescription: "Group description",
  modelBuildId: "Model build",
  imageUri: "Adapter image",
  evaluationId: "Evaluation run",
  description: "Version description",
};
const fieldsByPath = Object.fromEntries(Object.keys(labels).map((field) => [field, field])) as Record<string, Field>;

/**
 * Registers a finished model build's artifact with an adapter image as the next version of a group; the image build
 * that produced the image and an evaluation run that served both are recorded with it.
 */
export function RegisterVersionForm() {
  const router = useRouter();
  const prefix = useConsoleSettings().data?.resourceNamePrefix ?? null;
  const groups = useModelGroups();
  const builds = useBuilds();
  const presets = useModelPresets();
  const images = useImages();
  const evaluations = useEvaluations();
  const endpoints = useEndpoints();
  const register = useRegisterVersion();
  const [form, setForm] = useState({
    group: prefix ?? "",
    groupDescription: "",
    modelBuildId: "",
    imageUri: "",
    evaluationId: "",
    description: "",
  });
  const [tried, setTried] = useState(false);
  const modelBuilds = modelOutputsOf(builds.data?.builds);
  const imageBuild = builds.data?.builds.find(
    (build) =>
      build.kind === "image" && build.status === "SUCCEEDED" && pinnedImageUri(build.outputs) === form.imageUri,
  );
  const chosenBuild = modelBuilds.find((build) => build.id === form.modelBuildId);
  const serving = endpointsServing(endpoints.data?.endpoints ?? [], {
    modelSha256: chosenBuild?.outputs.modelSha256 ?? null,
    imageUri: form.imageUri || null,
  });
  const completed = runsOfServingEndpoints(evaluations.data?.evaluations ?? [], serving);
  const isNewGroup = !(groups.data?.groups ?? []).some((group) => group.name === form.group);
  const request: RegisterVersionInput = {
    group: form.group.trim(),
    modelBuildId: form.modelBuildId,
    imageUri: form.imageUri,
    ...(imageBuild ? { imageBuildId: imageBuild.id } : {}),
    ...(form.evaluationId ? { evaluationId: form.evaluationId } : {}),
    ...(form.description.trim() ? { description: form.description.trim() } : {}),
    ...(isNewGroup && form.groupDescription.trim() ? { groupDescription: form.groupDescription.trim() } : {}),
  };
  const problems = schemaProblems(registerVersionSchema, request, fieldsByPath, labels);
  const shown = tried ? problems.fields : {};
  const set = (field: Field, value: string) => setForm((current) => ({ ...current, [field]: value }));

  return (
    <Card title="Register a version">
      <form
        className="grid gap-3"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTried(true);
          if (problems.summary.length > 0) return;
          register.mutate(request, {
            onSuccess: (version) => router.push(versionPage(version.group, version.version)),
          });
        }}
      >
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            label={labels.group}
            required
            list="model-groups"
            value={form.group}
            error={shown.group}
            onChange={(event) => set("group", event.target.value)}
            hint={`A model package group per decision model; created on first use.${prefix ? ` Starts with "${prefix}".` : ""}`}
          />
          <datalist id="model-groups">
            {groups.data?.groups.map((group) => (
              <option key={group.name} value={group.name} />
            ))}
          </datalist>
          {isNewGroup && (
            <TextField
              label={`${labels.groupDescription} (optional)`}
              value={form.groupDescription}
              error={shown.groupDescription}
              onChange={(event) => set("groupDescription", event.target.value)}
            />
          )}
        </div>
        <SelectField
          label={labels.modelBuildId}
          value={form.modelBuildId}
          error={shown.modelBuildId}
          onChange={(event) => set("modelBuildId", event.target.value)}
          hint="A model-packaging build that SUCCEEDED: its artifact, sha256, size and pins become the version's."
        >
          <option value="">{builds.isPending ? "Loading builds…" : "Choose a model build"}</option>
          {modelBuilds.map((build) => (
            <option key={build.id} value={build.id}>
              {modelOutputLabel(build, presets.data?.presets)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={labels.imageUri}
          value={form.imageUri}
          error={shown.imageUri}
          onChange={(event) => set("imageUri", event.target.value)}
          hint={imageBuild ? `Built by ${imageBuild.id}, recorded with the version.` : "By digest; a tag could move."}
        >
          <option value="">{images.isPending ? "Loading images…" : "Choose an image by digest"}</option>
          {images.data?.images.map((image) => (
            <option key={image.imageUri} value={image.imageUri}>
              {image.repository} {image.tags.length > 0 ? `(${image.tags.join(", ")})` : ""} {image.digest.slice(7, 19)}{" "}
              · {image.apiMode}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={`${labels.evaluationId} (optional)`}
          value={form.evaluationId}
          error={shown.evaluationId}
          onChange={(event) => set("evaluationId", event.target.value)}
          hint="A completed run on an endpoint serving this artifact and image; its report becomes the version's ModelMetrics. You can attach one later."
        >
          <option value="">None now</option>
          {completed.map((run) => (
            <option key={run.id} value={run.id}>
              {runOptionLabel(run)}
            </option>
          ))}
        </SelectField>
        <TextField
          label={`${labels.description} (optional)`}
          value={form.description}
          error={shown.description}
          onChange={(event) => set("description", event.target.value)}
        />
        {tried && <ProblemSummary title="Check the version" problems={problems.summary} />}
        {register.error && <ErrorAlert title="Could not register the version" error={register.error} />}
        <div>
          <Button type="submit" disabled={register.isPending}>
            {register.isPending ? "Registering…" : "Register version"}
          </Button>
        </div>
      </form>
    </Card>
  );
}

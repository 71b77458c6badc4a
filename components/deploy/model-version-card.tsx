"use client";

import Link from "next/link";
import { type Dispatch, type SetStateAction, useEffect, useState } from "react";
import { ErrorAlert } from "../api/error-text.tsx";
import { useApprovedVersions, versionPage } from "../models/model-queries.ts";
import { versionLabel } from "../models/version-format.ts";
import { Card } from "../ui/card.tsx";
import { SelectField } from "../ui/field.tsx";
import { type DeployForm, withModelVersion } from "./deploy-request.ts";
import { useImages } from "./image-queries.ts";

/**
 * Deploy an Approved Model Registry version: its image and artifact are the version's (the model is created from
 * it). "By hand" leaves the image and artifact cards to fill in, as for a candidate to evaluate before registering.
 */
export function ModelVersionCard({
  form,
  setForm,
  prefillVersion,
}: {
  form: DeployForm;
  setForm: Dispatch<SetStateAction<DeployForm>>;
  prefillVersion?: string;
}) {
  const approved = useApprovedVersions();
  const images = useImages();
  const [prefilled, setPrefilled] = useState(false);
  const pick = (arn: string) => {
    const version = approved.versions.find((candidate) => candidate.arn === arn) ?? null;
    const apiMode = images.data?.images.find((image) => image.imageUri === version?.imageUri)?.apiMode ?? "decision";
    setForm((current) => ({ ...withModelVersion(current, version), ...(version ? { apiMode } : {}) }));
  };
  useEffect(() => {
    if (prefilled || !prefillVersion || approved.isPending) return;
    setPrefilled(true);
    if (approved.versions.some((version) => version.arn === prefillVersion)) pick(prefillVersion);
  });
  const picked = approved.versions.find((version) => version.arn === form.modelVersionArn);
  return (
    <Card title="Model version">
      {approved.error && <ErrorAlert title="Could not list model versions" error={approved.error} />}
      <SelectField
        label="Approved model version"
        value={form.modelVersionArn}
        onChange={(event) => pick(event.target.value)}
        hint="Only Approved versions of the Model Registry are offered; the endpoint page then shows the version and the evaluation it was approved on."
      >
        <option value="">
          {approved.isPending ? "Loading versions…" : "None: choose an image and model artifact by hand"}
        </option>
        {approved.versions.map((version) => (
          <option key={version.arn} value={version.arn}>
            {versionLabel(version)}
          </option>
        ))}
      </SelectField>
      {prefillVersion && prefilled && !picked && !approved.isPending && (
        <p className="mt-2 text-xs text-red-800">
          The version in the link is not Approved (or not this console&apos;s); choose an Approved one.
        </p>
      )}
      {picked && (
        <dl className="mt-3 flex flex-col gap-1 text-sm" data-testid="picked-version">
          <div>
            <dt className="text-slate-700">Image</dt>
            <dd className="break-all font-mono text-xs">{picked.imageUri}</dd>
          </div>
          <div>
            <dt className="text-slate-700">Model artifact</dt>
            <dd className="break-all font-mono text-xs">{picked.modelDataUrl}</dd>
          </div>
          <div>
            <Link className="text-blue-800 underline" href={versionPage(picked.group, picked.version)}>
              {picked.group} v{picked.version}: approval and evaluation
            </Link>
          </div>
        </dl>
      )}
    </Card>
  );
}

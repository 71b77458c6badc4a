"use client";

import type { Dispatch, SetStateAction } from "react";
import { useApprovedVersions } from "../models/model-queries.ts";
import { versionLabel } from "../models/version-format.ts";
import { SelectField } from "../ui/field.tsx";
import type { UpdateForm } from "./update-fields.ts";

/**
 * The Approved version an update moves the endpoint to; the image and artifact fields then show the version's. An
 * endpoint that serves a version changes its image or artifact only through another version.
 */
export function VersionField({
  form,
  setForm,
  label,
  error,
}: {
  form: UpdateForm;
  setForm: Dispatch<SetStateAction<UpdateForm>>;
  label: string;
  error?: string;
}) {
  const approved = useApprovedVersions();
  const current = form.modelVersionArn;
  const listed = approved.versions.some((version) => version.arn === current);
  return (
    <SelectField
      label={label}
      value={current}
      error={error}
      onChange={(event) => {
        const version = approved.versions.find((candidate) => candidate.arn === event.target.value);
        setForm((before) =>
          version
            ? {
                ...before,
                modelVersionArn: version.arn,
                imageUri: version.imageUri ?? before.imageUri,
                modelDataUrl: version.modelDataUrl ?? before.modelDataUrl,
                modelSha256: version.modelSha256 ?? "",
              }
            : { ...before, modelVersionArn: "" },
        );
      }}
      hint="An Approved Model Registry version; its image and model artifact replace the endpoint's."
    >
      <option value="">{approved.isPending ? "Loading versions…" : "None: image and artifact by hand"}</option>
      {current && !listed && <option value={current}>{current} (served now, no longer Approved)</option>}
      {approved.versions.map((version) => (
        <option key={version.arn} value={version.arn}>
          {versionLabel(version)}
        </option>
      ))}
    </SelectField>
  );
}

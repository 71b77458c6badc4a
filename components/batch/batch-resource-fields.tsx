import { batchInstanceTypes } from "@/contract/batch/transform-limits.ts";
import { SelectField, TextField } from "../ui/field.tsx";

/** What a transform job runs on, as the form holds it: text fields, numbers once sent. */
export interface BatchResources {
  instanceType: string;
  instanceCount: string;
  maxConcurrentTransforms: string;
}

export const initialBatchResources: BatchResources = {
  instanceType: batchInstanceTypes[0],
  instanceCount: "1",
  maxConcurrentTransforms: "",
};

/** Instance type (CPU types only), instance count and MaxConcurrentTransforms of a transform job. */
export function BatchResourceFields({
  value,
  errors = {},
  onChange,
}: {
  value: BatchResources;
  /** Each field's problem, in the request schema's words. */
  errors?: Partial<Record<"instanceCount" | "maxConcurrentTransforms", string>>;
  onChange: (value: BatchResources) => void;
}) {
  return (
    <>
      <SelectField
        label="Instance type"
        value={value.instanceType}
        onChange={(e) => onChange({ ...value, instanceType: e.target.value })}
      >
        {batchInstanceTypes.map((type) => (
          <option key={type}>{type}</option>
        ))}
      </SelectField>
      <TextField
        label="Instance count"
        type="number"
        min={1}
        max={20}
        error={errors.instanceCount}
        value={value.instanceCount}
        onChange={(e) => onChange({ ...value, instanceCount: e.target.value })}
      />
      <TextField
        label="Max concurrent transforms"
        hint="Per instance; blank: the adapter's /execution-parameters (ADAPTER_PARALLEL)."
        type="number"
        min={1}
        max={100}
        error={errors.maxConcurrentTransforms}
        value={value.maxConcurrentTransforms}
        onChange={(e) => onChange({ ...value, maxConcurrentTransforms: e.target.value })}
      />
    </>
  );
}

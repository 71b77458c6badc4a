import {
  type CapacityRule,
  capacityProblem,
  type DeploymentPlan,
  deploymentPlan,
  rollbackBatchProblem,
} from "@/contract/endpoints/deployment-plan.ts";
import type { EndpointDetail } from "@/contract/endpoints/endpoint.ts";
import {
  capacitySizeOf,
  deploymentConfigOf,
  type EndpointChange,
  strategyCapacityProblem,
  type UpdateRequestInput,
  updateRequestSchema,
} from "@/contract/endpoints/update.ts";
import { addProblem, type FormProblems, schemaProblems } from "../forms/schema-problems.ts";
import { type UpdateField, type UpdateForm, updateFieldLabels, updateFieldsByPath } from "./update-fields.ts";

export type { UpdateForm } from "./update-fields.ts";

const text = (value: number | string | null | undefined) =>
  value === null || value === undefined ? "" : String(value);

/** The form for an endpoint: its current image, model and settings; a canary of one instance baking 10 minutes. */
export function initialUpdateForm(endpoint: EndpointDetail, overrides: Partial<UpdateForm> = {}): UpdateForm {
  return {
    modelVersionArn: text(endpoint.model.modelVersionArn),
    imageUri: text(endpoint.model.imageUri),
    modelDataUrl: text(endpoint.model.modelDataUrl),
    modelSha256: text(endpoint.model.modelSha256),
    temperature: text(endpoint.settings.temperature),
    threads: text(endpoint.settings.threads),
    parallel: text(endpoint.settings.parallel),
    instanceCount: text(endpoint.instanceCount ?? 1),
    instanceType: text(endpoint.variants[0]?.instanceType),
    instancePools: [...(endpoint.variants[0]?.pools ?? [])]
      .sort((a, b) => a.priority - b.priority)
      .map((pool) => pool.instanceType)
      .join(", "),
    strategy: (endpoint.instanceCount ?? 1) > 1 ? "canary" : "all-at-once",
    sizeUnit: "instances",
    sizeValue: "1",
    waitSeconds: "600",
    terminationWaitSeconds: "0",
    maxExecutionSeconds: "",
    rollbackSizeValue: "",
    rollbackSizeUnit: "instances",
    alarms: "standard",
    latencyAverageMs: "2000",
    max5xxPerMinute: "0",
    maxModelErrorsPerMinute: "0",
    existingAlarms: "",
    ...overrides,
  };
}

const numberOr = (value: string) => (value.trim() === "" ? undefined : Number(value));
const poolsOf = (value: string) =>
  value
    .split(/[\s,]+/)
    .map((type) => type.trim())
    .filter(Boolean);

/** What differs from the endpoint, as the request's `change`. */
function changeOf(endpoint: EndpointDetail, form: UpdateForm): EndpointChange {
  const initial = initialUpdateForm(endpoint);
  const change: EndpointChange = {};
  // A new version names its image and artifact itself; the fields show them, the change names the version only.
  const newVersion = form.modelVersionArn !== initial.modelVersionArn && form.modelVersionArn !== "";
  if (newVersion) change.modelVersionArn = form.modelVersionArn;
  if (!newVersion && form.imageUri !== initial.imageUri) change.imageUri = form.imageUri.trim();
  if (!newVersion && form.modelDataUrl !== initial.modelDataUrl) {
    change.modelDataUrl = form.modelDataUrl.trim();
    if (form.modelSha256.trim()) change.modelSha256 = form.modelSha256.trim();
  }
  if (form.temperature !== initial.temperature) {
    change.temperature = form.temperature.trim() === "" ? null : Number(form.temperature);
  }
  if (form.threads !== initial.threads) change.threads = numberOr(form.threads);
  if (form.parallel !== initial.parallel) change.parallel = numberOr(form.parallel);
  if (form.instanceCount !== initial.instanceCount) change.instanceCount = numberOr(form.instanceCount);
  if (form.instanceType !== initial.instanceType && form.instanceType.trim()) {
    change.instanceType = form.instanceType.trim();
  }
  const pools = poolsOf(form.instancePools);
  if (pools.join() !== poolsOf(initial.instancePools).join() && pools.length > 0) change.instancePools = pools;
  return change;
}

/** The review's rows: each changed setting with what the endpoint runs now and what it will run. */
export function updateDiff(
  endpoint: EndpointDetail,
  form: UpdateForm,
): { setting: string; from: string; to: string }[] {
  const initial = initialUpdateForm(endpoint);
  const rows: [string, keyof UpdateForm][] = [
    ["Model version", "modelVersionArn"],
    ["Image", "imageUri"],
    ["Model artifact", "modelDataUrl"],
    ["Model sha256", "modelSha256"],
    ["Temperature (SEMIF_TEMPERATURE)", "temperature"],
    ["Threads", "threads"],
    ["Parallel decisions (ADAPTER_PARALLEL)", "parallel"],
    ["Instance count", "instanceCount"],
    ["Instance type", "instanceType"],
    ["Instance pools (by priority)", "instancePools"],
  ];
  return rows
    .filter(([, key]) => form[key] !== initial[key])
    .map(([setting, key]) => ({ setting, from: initial[key] || "(default)", to: form[key] || "(default)" }));
}

/** The request the form stands for (validated by the server with the same schema). */
export function updateRequestOf(endpoint: EndpointDetail, form: UpdateForm): UpdateRequestInput {
  const size = { unit: form.sizeUnit, value: Number(form.sizeValue) };
  const waitSeconds = Number(form.waitSeconds);
  const strategy: UpdateRequestInput["strategy"] =
    form.strategy === "all-at-once"
      ? { kind: "all-at-once", waitSeconds }
      : form.strategy === "rolling"
        ? {
            kind: "rolling",
            size,
            waitSeconds,
            ...(form.rollbackSizeValue.trim()
              ? { rollbackSize: { unit: form.rollbackSizeUnit, value: Number(form.rollbackSizeValue) } }
              : {}),
          }
        : { kind: form.strategy, size, waitSeconds };
  const alarms: UpdateRequestInput["alarms"] =
    form.alarms === "standard"
      ? {
          kind: "standard",
          latencyAverageMs: Number(form.latencyAverageMs),
          max5xxPerMinute: Number(form.max5xxPerMinute),
          maxModelErrorsPerMinute: Number(form.maxModelErrorsPerMinute),
        }
      : form.alarms === "existing"
        ? {
            kind: "existing",
            names: form.existingAlarms
              .split(/[\s,]+/)
              .map((name) => name.trim())
              .filter(Boolean),
          }
        : { kind: "none" };
  return {
    change: changeOf(endpoint, form),
    strategy,
    terminationWaitSeconds: Number(form.terminationWaitSeconds),
    ...(form.maxExecutionSeconds.trim() ? { maxExecutionSeconds: Number(form.maxExecutionSeconds) } : {}),
    alarms,
  };
}

/**
 * The plan the review shows: the steps SageMaker will take for the new fleet's instance count; none for a step size
 * SageMaker would refuse for that count (a canary of 1 on 1 instance is no canary: it would read "100% on the new
 * fleet"), whose problem the form lists instead.
 */
export function updatePlan(endpoint: EndpointDetail, form: UpdateForm): DeploymentPlan | null {
  const parsed = updateRequestSchema.safeParse(updateRequestOf(endpoint, form));
  if (!parsed.success) return null;
  const count = parsed.data.change.instanceCount ?? endpoint.instanceCount ?? 1;
  if (strategyCapacityProblem(parsed.data.strategy, count)) return null;
  return deploymentPlan(deploymentConfigOf(parsed.data, []), count);
}

const capacityRuleOf: Partial<Record<UpdateForm["strategy"], CapacityRule>> = {
  canary: "canary",
  linear: "linear",
  rolling: "rolling",
};

/**
 * What a person must fix before the update can be sent: what updateRequestSchema, the server's own check, finds at
 * each field, then the API reference's limits that need the endpoint's instance count.
 */
export function updateProblems(endpoint: EndpointDetail, form: UpdateForm): FormProblems<UpdateField> {
  const request = updateRequestOf(endpoint, form);
  const labels = updateFieldLabels(form.strategy);
  const at = (field: UpdateField) => ({ field, label: labels[field] });
  const problems = schemaProblems(updateRequestSchema, request, updateFieldsByPath, labels);
  if (Object.keys(request.change).length === 0) addProblem(problems, "Change at least one setting.");
  if (request.change.instanceType !== undefined && request.change.instancePools !== undefined) {
    addProblem(problems, "Give an instance type or instance pools, not both (empty the other).");
  }
  const parsed = updateRequestSchema.safeParse(request);
  if (!parsed.success) return problems;
  const count = parsed.data.change.instanceCount ?? endpoint.instanceCount ?? 1;
  const rule = capacityRuleOf[form.strategy];
  const strategy = parsed.data.strategy;
  if (rule && "size" in strategy) {
    const problem = capacityProblem(rule, capacitySizeOf(strategy.size), count);
    if (problem) addProblem(problems, problem, at("sizeValue"));
  }
  if (strategy.kind === "rolling" && strategy.rollbackSize) {
    const problem = rollbackBatchProblem(capacitySizeOf(strategy.rollbackSize), count);
    if (problem) addProblem(problems, problem, at("rollbackSizeValue"));
  }
  const waits = strategy.waitSeconds + (form.strategy === "rolling" ? 0 : parsed.data.terminationWaitSeconds);
  if (parsed.data.maxExecutionSeconds !== undefined && parsed.data.maxExecutionSeconds <= waits) {
    addProblem(
      problems,
      `The execution timeout must be longer than the waits (${waits} s).`,
      at("maxExecutionSeconds"),
    );
  }
  return problems;
}

/**
 * The variant's autoscaling when the update changes its instance type or pools: Application Auto Scaling refuses
 * that update of a scalable target, so the console deregisters it and registers it again after; null otherwise.
 */
export function autoscalingToReRegister(endpoint: EndpointDetail, form: UpdateForm): EndpointDetail["autoscaling"] {
  const { change } = updateRequestOf(endpoint, form);
  return change.instanceType !== undefined || change.instancePools !== undefined ? endpoint.autoscaling : null;
}

/**
 * Whether the Updates card keeps its form open: only while the endpoint is InService. Once an update starts (this
 * form's, a roll back or anyone's) the edit is over, so the form does not come back by itself when the update
 * finishes or rolls back.
 */
export function updateFormStaysOpen(editing: boolean, status: EndpointDetail["status"]): boolean {
  return editing && status === "InService";
}

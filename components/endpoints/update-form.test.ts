import { describe, expect, it } from "vitest";
import { describePlan, updateRequestSchema } from "@/contract/endpoints/update.ts";
import { plainIssueText } from "@/contract/http/plain-issues.ts";
import { cpuEndpointDetail } from "@/tests/support/endpoints/endpoint-detail.ts";
import {
  autoscalingToReRegister,
  initialUpdateForm,
  updateDiff,
  updatePlan,
  updateProblems,
  updateRequestOf,
} from "./update-form.ts";

const image = `123456789012.dkr.ecr.us-east-1.amazonaws.com/decision-adapter@sha256:${"a".repeat(64)}`;
const endpoint = cpuEndpointDetail(image);

describe("update form", () => {
  it("starts at what the endpoint runs, so nothing changes until a setting does", () => {
    const form = initialUpdateForm(endpoint);
    expect(updateDiff(endpoint, form)).toEqual([]);
    expect(updateProblems(endpoint, form).summary).toContain("Change at least one setting.");
    expect(form.strategy).toBe("canary");
  });

  it("sends only what changed, shows it against what runs now, and plans the canary", () => {
    const form = initialUpdateForm(endpoint, { temperature: "0.72", waitSeconds: "300" });
    expect(updateDiff(endpoint, form)).toEqual([
      { setting: "Temperature (SEMIF_TEMPERATURE)", from: "1.3", to: "0.72" },
    ]);
    expect(updateRequestOf(endpoint, form)).toMatchObject({
      change: { temperature: 0.72 },
      strategy: { kind: "canary", size: { unit: "instances", value: 1 }, waitSeconds: 300 },
      alarms: { kind: "standard", latencyAverageMs: 2000 },
    });
    expect(updateProblems(endpoint, form)).toEqual({ fields: {}, summary: [] });
    expect(updatePlan(endpoint, form)?.steps.map((step) => step.newFleetShare)).toEqual([0.5, 1]);
  });

  it("previews no plan for a canary the instance count cannot run, instead of 100% on the new fleet", () => {
    const single = { ...endpoint, instanceCount: 1 };
    const form = initialUpdateForm(single, { temperature: "0.72", strategy: "canary", sizeValue: "1" });
    expect(updateProblems(single, form).fields.sizeValue).toContain("less than or equal to 50%");
    expect(updatePlan(single, form)).toBeNull();
  });

  it("names the API reference's limits before anything is sent", () => {
    const tooBig = initialUpdateForm(endpoint, { threads: "16", sizeValue: "2" });
    expect(updateProblems(endpoint, tooBig).fields.sizeValue).toContain("less than or equal to 50%");
    const linear = initialUpdateForm(endpoint, {
      threads: "16",
      strategy: "linear",
      sizeUnit: "percent",
      sizeValue: "5",
    });
    expect(updateProblems(endpoint, linear).summary.join(" ")).toContain("Step size: LinearStepSize");
    expect(updateProblems(endpoint, linear).fields.sizeValue).toContain("between 10% and 50%");
    const shortTimeout = initialUpdateForm(endpoint, { threads: "16", waitSeconds: "900", maxExecutionSeconds: "600" });
    expect(updateProblems(endpoint, shortTimeout).fields.maxExecutionSeconds).toContain(
      "longer than the waits (900 s)",
    );
    const badWait = initialUpdateForm(endpoint, { threads: "16", waitSeconds: "4000" });
    expect(updateProblems(endpoint, badWait)).toEqual({
      fields: { waitSeconds: "must be 0-3600 seconds" },
      summary: ["Baking time (s): must be 0-3600 seconds"],
    });
  });

  it("previews a rolling update's batches and its rollback batch size, with the sizes' own units", () => {
    const form = initialUpdateForm(endpoint, {
      instanceCount: "4",
      strategy: "rolling",
      sizeUnit: "percent",
      sizeValue: "50",
      waitSeconds: "60",
      rollbackSizeValue: "1",
      rollbackSizeUnit: "instances",
    });
    expect(updateRequestOf(endpoint, form).strategy).toEqual({
      kind: "rolling",
      size: { unit: "percent", value: 50 },
      waitSeconds: 60,
      rollbackSize: { unit: "instances", value: 1 },
    });
    expect(updateProblems(endpoint, form)).toEqual({ fields: {}, summary: [] });
    const plan = updatePlan(endpoint, form);
    expect(plan && describePlan(plan)).toEqual([
      "Batch 1: 2 of 4 instances replaced, 50% of traffic on the new fleet, then 60 s waiting",
      "Batch 2: 4 of 4 instances replaced, 100% of traffic on the new fleet, then 60 s waiting",
      "On a rollback: 1 instance back on the old configuration at a time",
    ]);
    const tooLarge = { ...form, rollbackSizeValue: "5" };
    expect(updateProblems(endpoint, tooLarge).fields.rollbackSizeValue).toContain(
      "RollbackMaximumBatchSize must not exceed the variant's total instance count (4)",
    );
  });

  it("changes the instance type or moves to pools, and says autoscaling is registered again around it", () => {
    const scaling = {
      minCapacity: 1,
      maxCapacity: 4,
      targetInvocationsPerInstance: 100,
      scaleInDisabled: false,
      scaleInCooldownSeconds: 300,
      scaleOutCooldownSeconds: 60,
      scaleToZero: false,
      targetBacklogPerInstance: null,
    };
    const scaled = { ...endpoint, autoscaling: scaling };
    const larger = initialUpdateForm(scaled, { instanceType: "ml.c6i.16xlarge" });
    expect(updateRequestOf(scaled, larger).change).toEqual({ instanceType: "ml.c6i.16xlarge" });
    expect(updateDiff(scaled, larger)).toEqual([
      { setting: "Instance type", from: "ml.c6i.8xlarge", to: "ml.c6i.16xlarge" },
    ]);
    expect(autoscalingToReRegister(scaled, larger)).toEqual(scaling);
    expect(autoscalingToReRegister(endpoint, larger)).toBeNull();
    expect(autoscalingToReRegister(scaled, initialUpdateForm(scaled, { threads: "4" }))).toBeNull();

    const pools = initialUpdateForm(scaled, { instanceType: "", instancePools: "ml.c7i.8xlarge, ml.c6i.8xlarge" });
    expect(updateRequestOf(scaled, pools).change).toEqual({ instancePools: ["ml.c7i.8xlarge", "ml.c6i.8xlarge"] });
    expect(updateProblems(scaled, pools)).toEqual({ fields: {}, summary: [] });
    const both = { ...pools, instanceType: "ml.c6i.16xlarge" };
    expect(updateProblems(scaled, both).summary).toContain(
      "Give an instance type or instance pools, not both (empty the other).",
    );
  });

  it("shows the schema's own message at the field it belongs to", () => {
    const forms = [
      initialUpdateForm(endpoint, { imageUri: "repo/adapter:latest" }),
      initialUpdateForm(endpoint, { instanceType: "", instancePools: "ml.c6i.8xlarge, ml.c6i.8xlarge" }),
      initialUpdateForm(endpoint, { threads: "0" }),
      initialUpdateForm(endpoint, { temperature: "-1" }),
      initialUpdateForm(endpoint, { threads: "4", alarms: "standard", latencyAverageMs: "0" }),
    ];
    const fields = ["imageUri", "instancePools", "threads", "temperature", "latencyAverageMs"];
    for (const [index, form] of forms.entries()) {
      const request = updateRequestOf(endpoint, form);
      const issues = updateRequestSchema.safeParse(request, { error: plainIssueText }).error?.issues ?? [];
      expect(issues.length).toBeGreaterThan(0);
      expect(updateProblems(endpoint, form).fields).toEqual({ [fields[index] ?? ""]: issues[0]?.message });
    }
    expect(updateProblems(endpoint, forms[1] ?? initialUpdateForm(endpoint)).summary).toEqual([
      "Instance pools: instance types must be unique",
    ]);
  });

  it("says a number's rule at its field in plain words, never zod's default text", () => {
    expect(updateProblems(endpoint, initialUpdateForm(endpoint, { threads: "0" })).fields).toEqual({
      threads: "Must be at least 1.",
    });
    expect(updateProblems(endpoint, initialUpdateForm(endpoint, { instanceCount: "-3" })).summary).toEqual([
      "Instance count: At least 1 instance.",
    ]);
    const sized = initialUpdateForm(endpoint, { threads: "4", sizeValue: "0", maxExecutionSeconds: "60" });
    expect(updateProblems(endpoint, sized).fields).toEqual({
      sizeValue: "Must be at least 1.",
      maxExecutionSeconds: "Must be at least 600.",
    });
  });

  it("names existing alarms and removes a temperature when the field is emptied", () => {
    const form = initialUpdateForm(endpoint, {
      temperature: "",
      alarms: "existing",
      existingAlarms: "dc-a, dc-b\ndc-c",
    });
    expect(updateRequestOf(endpoint, form)).toMatchObject({
      change: { temperature: null },
      alarms: { kind: "existing", names: ["dc-a", "dc-b", "dc-c"] },
    });
  });
});

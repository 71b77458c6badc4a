import { describe, expect, it } from "vitest";
import { cpuEndpointDetail } from "@/tests/support/endpoints/endpoint-detail.ts";
import { endpointRefreshMs } from "./endpoint-queries.ts";

const image = `123456789012.dkr.ecr.us-east-1.amazonaws.com/decision-adapter@sha256:${"a".repeat(64)}`;
const endpoint = cpuEndpointDetail(image);
const scaleToZero = {
  minCapacity: 0,
  maxCapacity: 1,
  targetInvocationsPerInstance: null,
  scaleInDisabled: false,
  scaleInCooldownSeconds: 300,
  scaleOutCooldownSeconds: 60,
  scaleToZero: true,
  targetBacklogPerInstance: 5,
};

describe("the endpoint page's refresh", () => {
  it("polls quickly while the endpoint changes and not at all while nothing can change it", () => {
    expect(endpointRefreshMs(undefined)).toBe(false);
    expect(endpointRefreshMs({ ...endpoint, status: "Updating" })).toBe(3_000);
    expect(endpointRefreshMs({ ...endpoint, status: "InService", autoscaling: null })).toBe(false);
  });

  it("keeps looking while autoscaling may start a scaling activity from InService (scale to zero, wake-up)", () => {
    expect(endpointRefreshMs({ ...endpoint, status: "InService", autoscaling: scaleToZero })).toBe(10_000);
  });
});

import { describe, expect, it } from "vitest";
import { describeConfiguration, instancesOfConfiguration } from "./configuration-text.ts";

const settings = { threads: null, gpuLayers: null, parallel: null, temperature: null, limits: {} };

describe("endpoint configuration for the comparison table", () => {
  it("names the instance type and threads as the AWS post's table does", () => {
    expect(
      describeConfiguration({
        instanceType: "ml.c6i.8xlarge",
        instanceCount: 1,
        settings: { ...settings, threads: 32 },
      }),
    ).toBe("ml.c6i.8xlarge, 32 threads");
  });

  it("names GPU offload, several instances and a fitted temperature", () => {
    expect(
      describeConfiguration({
        instanceType: "ml.g6e.xlarge",
        instanceCount: 2,
        settings: { ...settings, gpuLayers: "max", temperature: 1.3 },
      }),
    ).toBe("2 × ml.g6e.xlarge, all layers on GPU, temperature 1.3");
  });

  it("is null while nothing is provisioned", () => {
    expect(describeConfiguration({ instanceType: null, instanceCount: null, settings })).toBeNull();
  });
});

describe("the instances a stored configuration names, for an evaluation's cost", () => {
  it("reads back the type and count describeConfiguration wrote", () => {
    const configuration = describeConfiguration({
      instanceType: "ml.g6e.xlarge",
      instanceCount: 2,
      settings: { ...settings, gpuLayers: "max" },
    });
    expect(instancesOfConfiguration(configuration)).toEqual({ instanceType: "ml.g6e.xlarge", instanceCount: 2 });
    expect(instancesOfConfiguration("ml.c6i.8xlarge, 32 threads")).toEqual({
      instanceType: "ml.c6i.8xlarge",
      instanceCount: 1,
    });
  });

  it("names none for a batch transform run or an endpoint that could not be described", () => {
    expect(instancesOfConfiguration("2 x ml.m5.large (batch transform)")).toBeNull();
    expect(instancesOfConfiguration(null)).toBeNull();
  });
});

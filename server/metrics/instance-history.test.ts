import {
  ApplicationAutoScalingClient,
  DescribeScalingActivitiesCommand,
} from "@aws-sdk/client-application-auto-scaling";
import { DescribeEndpointCommand, DescribeEndpointConfigCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { mockClient } from "aws-sdk-client-mock";
import { describe, expect, it } from "vitest";
import { instanceHistory } from "./instance-history.ts";

const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 20, minute));
const activity = (count: number, start: number, end: number) => ({
  StatusCode: "Successful" as const,
  Description: `Setting desired instance count to ${count}.`,
  StartTime: at(start),
  EndTime: at(end),
  ActivityId: `a-${start}`,
  ServiceNamespace: "sagemaker" as const,
  ResourceId: "endpoint/dc-async/variant/AllTraffic",
  ScalableDimension: "sagemaker:variant:DesiredInstanceCount" as const,
  Cause: "alarm",
  StatusMessage: "",
});

describe("a variant's instance history", () => {
  it("says how long its latest start from 0 instances took, from that scaling activity", async () => {
    const sageMaker = mockClient(SageMakerClient);
    const autoScaling = mockClient(ApplicationAutoScalingClient);
    sageMaker.on(DescribeEndpointCommand).resolves({
      EndpointName: "dc-async",
      EndpointConfigName: "dc-async",
      CreationTime: at(0),
      ProductionVariants: [{ VariantName: "AllTraffic", CurrentInstanceCount: 1 }],
    });
    sageMaker.on(DescribeEndpointConfigCommand).resolves({
      ProductionVariants: [{ VariantName: "AllTraffic", InitialInstanceCount: 1 }],
    });
    autoScaling.on(DescribeScalingActivitiesCommand).resolves({
      // Newest first, as Application Auto Scaling lists them: woke from 0 in 4 minutes, once 3 earlier.
      ScalingActivities: [activity(1, 50, 54), activity(0, 40, 41), activity(1, 20, 23), activity(0, 10, 11)],
    });
    const [series] = await instanceHistory(
      { sageMaker: new SageMakerClient({}), autoScaling: new ApplicationAutoScalingClient({}) },
      "dc-async",
      at(0),
      at(59),
    );
    expect(series?.coldStartSeconds).toBe(240);
    autoScaling.on(DescribeScalingActivitiesCommand).resolves({ ScalingActivities: [activity(2, 50, 54)] });
    const [never] = await instanceHistory(
      { sageMaker: new SageMakerClient({}), autoScaling: new ApplicationAutoScalingClient({}) },
      "dc-async",
      at(0),
      at(59),
    );
    expect(never?.coldStartSeconds).toBeNull();
    sageMaker.restore();
    autoScaling.restore();
  });
});

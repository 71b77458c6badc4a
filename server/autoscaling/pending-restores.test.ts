import {
  ApplicationAutoScalingClient,
  DescribeScalableTargetsCommand,
  DescribeScalingPoliciesCommand,
  PutScalingPolicyCommand,
  RegisterScalableTargetCommand,
} from "@aws-sdk/client-application-auto-scaling";
import { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import { DescribeEndpointCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { beforeEach, expect, it } from "vitest";
import type { Autoscaling } from "../../contract/endpoints/autoscaling.ts";
import { describedEndpoint } from "../../tests/support/endpoints/fixtures.ts";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import { acquireLease } from "../store/leases.ts";
import { finishPendingRestore, pendingRestores, recordPendingRestore } from "./pending-restores.ts";

const sageMaker = mockClient(SageMakerClient);
const autoScaling = mockClient(ApplicationAutoScalingClient);
const cloudWatch = mockClient(CloudWatchClient);
const aws = {
  sageMaker: new SageMakerClient({ region: "us-east-1" }),
  cloudWatch: new CloudWatchClient({ region: "us-east-1" }),
  autoScaling: new ApplicationAutoScalingClient({ region: "us-east-1" }),
};
const saved: Autoscaling = {
  minCapacity: 2,
  maxCapacity: 6,
  targetInvocationsPerInstance: 120,
  scaleInDisabled: false,
  scaleInCooldownSeconds: 300,
  scaleOutCooldownSeconds: 60,
  scaleToZero: false,
  targetBacklogPerInstance: null,
};

beforeEach(() => {
  sageMaker.reset();
  autoScaling.reset();
  cloudWatch.reset();
  cloudWatch.onAnyCommand().resolves({ MetricAlarms: [] });
  autoScaling.on(DescribeScalableTargetsCommand).resolves({ ScalableTargets: [] });
  autoScaling.on(DescribeScalingPoliciesCommand).resolves({ ScalingPolicies: [] });
});

describeOnStores("autoscaling registered again after an update", (current) => {
  it("waits for the endpoint to be InService again, registers what was stored, and forgets it", async () => {
    const { store } = current();
    await recordPendingRestore(store, "demo", "AllTraffic", saved);
    sageMaker
      .on(DescribeEndpointCommand)
      .resolvesOnce(describedEndpoint({ EndpointStatus: "Updating" }))
      .resolves(describedEndpoint({ EndpointStatus: "InService" }));
    await finishPendingRestore({ aws, store }, "demo", { pollSeconds: 0.01 });
    expect(sageMaker.commandCalls(DescribeEndpointCommand)).toHaveLength(2);
    expect(autoScaling).toHaveReceivedCommandWith(RegisterScalableTargetCommand, { MinCapacity: 2, MaxCapacity: 6 });
    expect(autoScaling).toHaveReceivedCommandWith(PutScalingPolicyCommand, {
      TargetTrackingScalingPolicyConfiguration: expect.objectContaining({ TargetValue: 120 }),
    });
    expect(await pendingRestores(store)).toEqual([]);
  });

  it("is left alone while another replica holds its lease, and stays stored for it", async () => {
    const { store } = current();
    await recordPendingRestore(store, "demo", "AllTraffic", saved);
    await acquireLease(store, "autoscaling-restore:demo", "another-replica", 60_000);
    await finishPendingRestore({ aws, store }, "demo", { pollSeconds: 0.01 });
    expect(sageMaker.commandCalls(DescribeEndpointCommand)).toHaveLength(0);
    expect(await pendingRestores(store)).toEqual(["demo"]);
  });

  it("gives up, logged, an endpoint that failed, and forgets it", async () => {
    const { store } = current();
    await recordPendingRestore(store, "demo", "AllTraffic", saved);
    sageMaker.on(DescribeEndpointCommand).resolves(describedEndpoint({ EndpointStatus: "Failed" }));
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: string) => errors.push(line);
    try {
      await finishPendingRestore({ aws, store }, "demo", { pollSeconds: 0.01 });
    } finally {
      console.error = original;
    }
    expect(autoScaling).not.toHaveReceivedCommand(RegisterScalableTargetCommand);
    expect(JSON.parse(errors[0]!)).toMatchObject({ endpoint: "demo", reason: "the endpoint is Failed" });
    expect(await pendingRestores(store)).toEqual([]);
  });
});

import type {
  ApplicationAutoScalingClient,
  DescribeScalingPoliciesCommandInput,
  ScalingPolicy,
} from "@aws-sdk/client-application-auto-scaling";
import type { CloudWatchClient, DescribeAlarmsCommandInput } from "@aws-sdk/client-cloudwatch";
import { describe, expect, it } from "vitest";
import { wakeAlarmName } from "../autoscaling/scale-to-zero.ts";
import { endpointAlarms } from "./endpoint-alarms.ts";
import { rollbackGuardAlarmNames } from "./rollback-alarms.ts";

const ENDPOINT = "dc-tracked";

const tracking = (endpoint: string, variant: string, id: string): ScalingPolicy => ({
  PolicyARN: `arn:aws:autoscaling:us-east-1:000000000000:scalingPolicy:${id}:resource/sagemaker/endpoint/${endpoint}/variant/${variant}:policyName/p`,
  PolicyName: "p",
  ServiceNamespace: "sagemaker",
  ResourceId: `endpoint/${endpoint}/variant/${variant}`,
  ScalableDimension: "sagemaker:variant:DesiredInstanceCount",
  PolicyType: "TargetTrackingScaling",
  CreationTime: new Date(0),
  Alarms: [
    { AlarmName: `TargetTracking-endpoint/${endpoint}/variant/${variant}-AlarmHigh-${id}`, AlarmARN: `arn:${id}:high` },
    { AlarmName: `TargetTracking-endpoint/${endpoint}/variant/${variant}-AlarmLow-${id}`, AlarmARN: `arn:${id}:low` },
  ],
});

/** Application Auto Scaling with policies on two pages (one of an endpoint whose name starts alike), and CloudWatch. */
function recordingClients() {
  const pages = [
    {
      ScalingPolicies: [tracking(ENDPOINT, "AllTraffic", "a1"), tracking(`${ENDPOINT}-2`, "AllTraffic", "b1")],
      NextToken: "2",
    },
    { ScalingPolicies: [tracking(ENDPOINT, "Shadow", "a2")] },
  ];
  const policiesAsked: DescribeScalingPoliciesCommandInput[] = [];
  const alarmsAsked: DescribeAlarmsCommandInput[] = [];
  const autoScaling = {
    async send(command: { input: DescribeScalingPoliciesCommandInput }) {
      policiesAsked.push(command.input);
      return command.input.NextToken === "2" ? pages[1] : pages[0];
    },
  } as unknown as ApplicationAutoScalingClient;
  const cloudWatch = {
    async send(command: { input: DescribeAlarmsCommandInput & { AlarmName?: string } }) {
      if ("HistoryItemType" in command.input) return { AlarmHistoryItems: [] };
      alarmsAsked.push(command.input);
      return { MetricAlarms: (command.input.AlarmNames ?? []).map((name) => ({ AlarmName: name })) };
    },
  } as unknown as CloudWatchClient;
  return { clients: { cloudWatch, autoScaling }, policiesAsked, alarmsAsked };
}

describe("the endpoint's alarms (issue 50.5)", () => {
  it("are asked for by name, the target-tracking ones by the names their policies report, never by a name prefix", async () => {
    const { clients, policiesAsked, alarmsAsked } = recordingClients();

    const { alarms } = await endpointAlarms(clients, ENDPOINT);

    expect(policiesAsked.map((input) => input.NextToken)).toEqual([undefined, "2"]);
    expect(alarmsAsked.every((input) => input.AlarmNamePrefix === undefined)).toBe(true);
    const tracked = [
      `TargetTracking-endpoint/${ENDPOINT}/variant/AllTraffic-AlarmHigh-a1`,
      `TargetTracking-endpoint/${ENDPOINT}/variant/AllTraffic-AlarmLow-a1`,
      `TargetTracking-endpoint/${ENDPOINT}/variant/Shadow-AlarmHigh-a2`,
      `TargetTracking-endpoint/${ENDPOINT}/variant/Shadow-AlarmLow-a2`,
    ];
    expect(alarmsAsked.flatMap((input) => input.AlarmNames ?? [])).toEqual([
      ...rollbackGuardAlarmNames(ENDPOINT),
      wakeAlarmName(ENDPOINT),
      ...tracked,
    ]);
    expect(alarms.filter((alarm) => alarm.kind === "target-tracking").map((alarm) => alarm.name)).toEqual(tracked);
  });
});

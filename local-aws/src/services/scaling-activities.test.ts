import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  ApplicationAutoScalingClient,
  DescribeScalingActivitiesCommand,
  type DescribeScalingActivitiesCommandInput,
} from "@aws-sdk/client-application-auto-scaling";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ControlPlane, startControlPlane } from "../control-plane.ts";
import { localClientConfig } from "../stack.ts";
import { testStackFixture } from "../test-support/stack-fixture.ts";
import { resultsPage } from "./application-auto-scaling-rules.ts";

/** DescribeScalingActivities' refusals, with AWS's error names, through the SDK; its paging. */
let dataDir: string;
let plane: ControlPlane;
let autoScaling: ApplicationAutoScalingClient;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-activities-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0 });
  autoScaling = new ApplicationAutoScalingClient(localClientConfig(plane, "admin"));
});

afterAll(async () => {
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const describeActivities = (input: Partial<DescribeScalingActivitiesCommandInput>) =>
  autoScaling.send(new DescribeScalingActivitiesCommand(input as DescribeScalingActivitiesCommandInput));

describe("DescribeScalingActivities", () => {
  it("lists no activities for a variant that never scaled", async () => {
    const listed = await describeActivities({ ServiceNamespace: "sagemaker", ResourceId: "endpoint/none/variant/v" });
    expect(listed.ScalingActivities).toEqual([]);
    expect(listed.NextToken).toBeUndefined();
  });

  it("refuses a missing or unknown namespace, MaxResults outside 1 to 50, and a dimension without a resource", async () => {
    await expect(describeActivities({})).rejects.toMatchObject({
      name: "ValidationException",
      message: expect.stringContaining("serviceNamespace"),
    });
    await expect(describeActivities({ ServiceNamespace: "nope" as never })).rejects.toMatchObject({
      name: "ValidationException",
      message: expect.stringContaining("enum value set"),
    });
    for (const MaxResults of [0, 51]) {
      await expect(describeActivities({ ServiceNamespace: "sagemaker", MaxResults })).rejects.toMatchObject({
        name: "ValidationException",
        message: expect.stringContaining("maxResults"),
      });
    }
    await expect(
      describeActivities({
        ServiceNamespace: "sagemaker",
        ScalableDimension: "sagemaker:variant:DesiredInstanceCount",
      }),
    ).rejects.toMatchObject({
      name: "ValidationException",
      message: "If you specify a scalable dimension, you must also specify a resource ID.",
    });
  });

  it("refuses a NextToken it did not hand out", async () => {
    for (const NextToken of ["abc", "7"]) {
      await expect(describeActivities({ ServiceNamespace: "sagemaker", NextToken })).rejects.toMatchObject({
        name: "InvalidNextTokenException",
      });
    }
  });
});

describe("resultsPage", () => {
  it("hands out MaxResults at a time (50 by default) and a token for the rest, none after the last page", () => {
    const items = Array.from({ length: 120 }, (_, i) => i);
    const first = resultsPage(items, {}, 50);
    expect([first.slice.length, first.nextToken]).toEqual([50, "50"]);
    const last = resultsPage(items, { NextToken: "100", MaxResults: 20 }, 50);
    expect([last.slice, last.nextToken]).toEqual([items.slice(100), undefined]);
    expect(resultsPage(items, { NextToken: "60", MaxResults: 2 }, 50).slice).toEqual([60, 61]);
  });

  it("refuses a MaxResults outside the operation's range, as the reference states it, with AWS's wording", () => {
    expect(resultsPage([1, 2, 3], { MaxResults: 10 }, 10).slice).toEqual([1, 2, 3]);
    expect(() => resultsPage([], { MaxResults: 11 }, 10)).toThrow(
      "1 validation error detected: Value '11' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to 10",
    );
    expect(() => resultsPage([], { MaxResults: 0 }, 50)).toThrow(/'maxResults' .* greater than or equal to 1/);
  });
});

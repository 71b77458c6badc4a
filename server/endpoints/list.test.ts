import {
  DescribeEndpointCommand,
  DescribeEndpointConfigCommand,
  DescribeModelCommand,
  ListEndpointsCommand,
  SageMakerClient,
} from "@aws-sdk/client-sagemaker";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { beforeEach, describe, expect, it } from "vitest";
import {
  describedCpuConfig,
  describedEndpoint,
  describedModel,
  describedPoolConfig,
  digest,
  modelSha,
} from "../../tests/support/endpoints/fixtures.ts";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import { listEndpoints } from "./list.ts";
import { EndpointSummaryCache } from "./summary-cache.ts";

const sageMaker = mockClient(SageMakerClient);
const client = new SageMakerClient({ region: "us-east-1" });
const modified = new Date("2026-11-30T10:12:00.000Z");

function entry(name: string) {
  return {
    EndpointName: name,
    EndpointArn: `arn:${name}`,
    EndpointStatus: "InService" as const,
    CreationTime: modified,
    LastModifiedTime: modified,
  };
}

function resetSageMaker() {
  sageMaker.reset();
  sageMaker.on(DescribeEndpointConfigCommand).resolves(describedCpuConfig());
  sageMaker.on(DescribeModelCommand).resolves(describedModel());
}

describe("endpoint list", () => {
  beforeEach(resetSageMaker);

  it("follows NextToken through every page", async () => {
    sageMaker
      .on(ListEndpointsCommand)
      .resolvesOnce({ Endpoints: [entry("a"), entry("b")], NextToken: "page-2" })
      .resolvesOnce({ Endpoints: [entry("c")] });
    sageMaker
      .on(DescribeEndpointCommand)
      .callsFake((input: { EndpointName: string }) => describedEndpoint({ EndpointName: input.EndpointName }));
    const list = await listEndpoints(client);
    expect(list.endpoints.map((e) => e.name)).toEqual(["a", "b", "c"]);
    expect(sageMaker).toHaveReceivedCommandTimes(ListEndpointsCommand, 2);
    expect(sageMaker).toHaveReceivedNthCommandWith(ListEndpointsCommand, 2, { NextToken: "page-2" });
  });

  it("summarises a CPU endpoint with its type, digest, model sha and hourly price", async () => {
    sageMaker.on(ListEndpointsCommand).resolves({ Endpoints: [entry("demo")] });
    sageMaker.on(DescribeEndpointCommand).resolves(describedEndpoint());
    const [summary] = (await listEndpoints(client)).endpoints;
    expect(summary).toEqual({
      name: "demo",
      arn: "arn:aws:sagemaker:us-east-1:123456789012:endpoint/demo",
      status: "InService",
      apiMode: "decision",
      instanceType: "ml.c6i.2xlarge",
      instanceCount: 1,
      usedFallbackPool: false,
      imageDigest: digest,
      modelSha256: modelSha,
      createdAt: "2026-11-30T10:00:00.000Z",
      lastModifiedAt: "2026-11-30T10:12:00.000Z",
      hourlyPriceUsd: 0.408,
      variantName: "AllTraffic",
      costPerThousandUsd: null,
      failureReason: null,
      managed: true,
    });
  });

  it("names the instance pool that won, and flags it when it is a fallback", async () => {
    sageMaker.on(ListEndpointsCommand).resolves({ Endpoints: [entry("demo")] });
    sageMaker.on(DescribeEndpointConfigCommand).resolves(describedPoolConfig());
    sageMaker.on(DescribeEndpointCommand).resolves(
      describedEndpoint({
        ProductionVariants: [
          {
            VariantName: "AllTraffic",
            CurrentInstanceCount: 2,
            InstancePools: [
              { InstanceType: "ml.g6e.xlarge", CurrentInstanceCount: 0 },
              { InstanceType: "ml.g6.2xlarge", CurrentInstanceCount: 2 },
            ],
          },
        ],
      }),
    );
    const [summary] = (await listEndpoints(client)).endpoints;
    expect(summary).toMatchObject({
      instanceType: "ml.g6.2xlarge",
      instanceCount: 2,
      usedFallbackPool: true,
      hourlyPriceUsd: 2.444,
    });
  });

  it("describes an unchanged endpoint only once across refreshes", async () => {
    sageMaker.on(ListEndpointsCommand).resolves({ Endpoints: [entry("demo")] });
    sageMaker.on(DescribeEndpointCommand).resolves(describedEndpoint());
    const cache = new EndpointSummaryCache();
    await listEndpoints(client, cache);
    await listEndpoints(client, cache);
    expect(sageMaker).toHaveReceivedCommandTimes(DescribeEndpointCommand, 1);
  });

  it("re-describes only the endpoint, not its config and model, when its status changes", async () => {
    sageMaker.on(DescribeEndpointCommand).resolves(describedEndpoint());
    const cache = new EndpointSummaryCache();
    sageMaker.on(ListEndpointsCommand).resolves({ Endpoints: [{ ...entry("demo"), EndpointStatus: "Creating" }] });
    await listEndpoints(client, cache);
    sageMaker.on(ListEndpointsCommand).resolves({ Endpoints: [{ ...entry("demo"), LastModifiedTime: new Date() }] });
    await listEndpoints(client, cache);
    expect(sageMaker).toHaveReceivedCommandTimes(DescribeEndpointCommand, 2);
    expect(sageMaker).toHaveReceivedCommandTimes(DescribeEndpointConfigCommand, 1);
    expect(sageMaker).toHaveReceivedCommandTimes(DescribeModelCommand, 1);
  });

  it("keeps an endpoint deleted between list and describe in the table from its listing", async () => {
    sageMaker.on(ListEndpointsCommand).resolves({ Endpoints: [{ ...entry("gone"), EndpointStatus: "Deleting" }] });
    sageMaker
      .on(DescribeEndpointCommand)
      .rejects(Object.assign(new Error('Could not find endpoint "gone".'), { name: "ValidationException" }));
    const [summary] = (await listEndpoints(client)).endpoints;
    expect(summary).toMatchObject({ name: "gone", status: "Deleting", instanceType: null, managed: true });
  });

  it("lists another team's endpoints as not managed, describing only those the prefix covers", async () => {
    sageMaker
      .on(ListEndpointsCommand)
      .resolves({ Endpoints: [entry("dc-router"), entry("team-b-ranker"), entry("DC-Upper")] });
    sageMaker
      .on(DescribeEndpointCommand)
      .callsFake((input: { EndpointName: string }) => describedEndpoint({ EndpointName: input.EndpointName }));
    const { endpoints } = await listEndpoints(client, new EndpointSummaryCache(), "dc-");
    expect(endpoints.map((e) => [e.name, e.managed])).toEqual([
      ["dc-router", true],
      ["team-b-ranker", false],
      ["DC-Upper", true],
    ]);
    expect(endpoints[1]).toMatchObject({ status: "InService", instanceType: null, imageDigest: null });
    expect(sageMaker).toHaveReceivedCommandTimes(DescribeEndpointCommand, 2);
    expect(sageMaker).not.toHaveReceivedCommandWith(DescribeEndpointCommand, { EndpointName: "team-b-ranker" });
  });

  it("lists an endpoint SageMaker refuses to describe as not managed, instead of failing the list", async () => {
    sageMaker.on(ListEndpointsCommand).resolves({ Endpoints: [entry("dc-ours"), entry("dc-theirs")] });
    sageMaker
      .on(DescribeEndpointCommand, { EndpointName: "dc-ours" })
      .resolves(describedEndpoint({ EndpointName: "dc-ours" }));
    sageMaker
      .on(DescribeEndpointCommand, { EndpointName: "dc-theirs" })
      .rejects(
        Object.assign(
          new Error(
            "User: arn:aws:iam::1:user/console is not authorized to perform: sagemaker:DescribeEndpoint on resource: arn:aws:sagemaker:us-east-1:1:endpoint/dc-theirs with an explicit deny",
          ),
          { name: "AccessDeniedException" },
        ),
      );
    const { endpoints } = await listEndpoints(client, new EndpointSummaryCache(), "dc-");
    expect(endpoints.map((e) => [e.name, e.managed])).toEqual([
      ["dc-ours", true],
      ["dc-theirs", false],
    ]);
  });

  it("still fails the list when the listing itself is refused", async () => {
    sageMaker.on(ListEndpointsCommand).rejects(
      Object.assign(new Error("not authorized to perform: sagemaker:ListEndpoints"), {
        name: "AccessDeniedException",
      }),
    );
    await expect(listEndpoints(client, new EndpointSummaryCache(), "dc-")).rejects.toMatchObject({ status: 403 });
  });
});

describeOnStores("endpoint summaries", (current) => {
  beforeEach(resetSageMaker);

  it("are kept in the store so a restarted console does not describe unchanged endpoints again", async () => {
    const { store } = current();
    sageMaker.on(ListEndpointsCommand).resolves({ Endpoints: [entry("demo"), entry("other")] });
    sageMaker
      .on(DescribeEndpointCommand)
      .callsFake((input: { EndpointName: string }) => describedEndpoint({ EndpointName: input.EndpointName }));
    const first = await listEndpoints(client, new EndpointSummaryCache(store));
    sageMaker.resetHistory();
    const afterRestart = await listEndpoints(client, new EndpointSummaryCache(store));
    expect(afterRestart).toEqual(first);
    expect(sageMaker).not.toHaveReceivedCommand(DescribeEndpointCommand);

    sageMaker.on(ListEndpointsCommand).resolves({ Endpoints: [entry("other")] });
    await listEndpoints(client, new EndpointSummaryCache(store));
    const rows = await store.selectFrom("endpoint_summaries").select("endpoint_name").execute();
    expect(rows).toEqual([{ endpoint_name: "other" }]);
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  CloudWatchLogsClient,
  FilterLogEventsCommand,
  type FilterLogEventsRequest,
} from "@aws-sdk/client-cloudwatch-logs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ControlPlane, startControlPlane } from "../control-plane.ts";
import { localClientConfig } from "../stack.ts";
import { testStackFixture } from "../test-support/stack-fixture.ts";

/** Local FilterLogEvents over the wire, as the API reference describes it, with the filter-pattern subset it serves. */
const GROUP = "/aws/sagemaker/Endpoints/dc-logs";
let dataDir: string;
let plane: ControlPlane;
let logs: CloudWatchLogsClient;

const messages = async (input: Omit<FilterLogEventsRequest, "logGroupName">) =>
  (await logs.send(new FilterLogEventsCommand({ logGroupName: GROUP, ...input }))).events?.map((e) => e.message);

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-logs-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0, waitForEndpoints: false });
  logs = new CloudWatchLogsClient(localClientConfig(plane, "console"));
  const lines: [string, string, number][] = [
    ["AllTraffic/i-1", '{"event":"ready","port":8080}', 1_000],
    ["AllTraffic/i-1", '{"path":"/invocations","status":200}', 2_000],
    ["AllTraffic/i-2", '{"path":"/invocations","status":400,"error":"ERROR bad request"}', 3_000],
    ["local-control-plane", "WARN AllTraffic: ADAPTER_THREADS=64 lowered", 4_000],
    ["AllTraffic/i-2", "ERROR Exiting after signal", 5_000],
  ];
  for (const [stream, message, timestamp] of lines) plane.logs.append(GROUP, stream, message, timestamp);
});

afterAll(async () => {
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("local FilterLogEvents", () => {
  it("matches terms (all, case-sensitive), quoted phrases, ?any-of and -excluded terms", async () => {
    expect(await messages({ filterPattern: "ERROR" })).toHaveLength(2);
    expect(await messages({ filterPattern: "exiting" })).toEqual([]);
    expect(await messages({ filterPattern: "ERROR request" })).toEqual([
      '{"path":"/invocations","status":400,"error":"ERROR bad request"}',
    ]);
    expect(await messages({ filterPattern: '"bad request"' })).toHaveLength(1);
    expect(await messages({ filterPattern: '"request bad"' })).toEqual([]);
    expect(await messages({ filterPattern: "?WARN ?Exiting" })).toEqual([
      "WARN AllTraffic: ADAPTER_THREADS=64 lowered",
      "ERROR Exiting after signal",
    ]);
    expect(await messages({ filterPattern: "ERROR -Exiting" })).toHaveLength(1);
    expect(await messages({ filterPattern: "" })).toHaveLength(5);
  });

  it("narrows to streams by name or prefix and to a time window [startTime, endTime)", async () => {
    expect(await messages({ logStreamNamePrefix: "AllTraffic/" })).toHaveLength(4);
    expect(await messages({ logStreamNames: ["local-control-plane"] })).toHaveLength(1);
    expect(await messages({ startTime: 2_000, endTime: 4_000 })).toEqual([
      '{"path":"/invocations","status":200}',
      '{"path":"/invocations","status":400,"error":"ERROR bad request"}',
    ]);
  });

  it("pages with nextToken and limit", async () => {
    const first = await logs.send(new FilterLogEventsCommand({ logGroupName: GROUP, limit: 3 }));
    expect(first.events).toHaveLength(3);
    const rest = await logs.send(new FilterLogEventsCommand({ logGroupName: GROUP, nextToken: first.nextToken }));
    expect(rest.events?.map((e) => e.timestamp)).toEqual([4_000, 5_000]);
    expect(rest.nextToken).toBeUndefined();
  });

  it("refuses unmasking, which local logs have no data protection policy for, and serves interleaved as AWS does", async () => {
    await expect(logs.send(new FilterLogEventsCommand({ logGroupName: GROUP, unmask: true }))).rejects.toMatchObject({
      name: "InvalidParameterException",
      message: "unmask true is not served by the local control plane.",
    });
    expect(await messages({ interleaved: true })).toHaveLength(5);
  });

  it("refuses what the reference refuses, and pattern syntax it does not serve, with InvalidParameterException", async () => {
    const refused = (input: Omit<FilterLogEventsRequest, "logGroupName">, message: RegExp) =>
      expect(logs.send(new FilterLogEventsCommand({ logGroupName: GROUP, ...input }))).rejects.toMatchObject({
        name: "InvalidParameterException",
        message: expect.stringMatching(message),
      });
    await refused({ logStreamNames: ["a"], logStreamNamePrefix: "a" }, /logStreamNames and logStreamNamePrefix/);
    await refused({ filterPattern: "{ $.status = 400 }" }, /JSON filter patterns are not supported by local mode/);
    await refused({ filterPattern: "[ip, user]" }, /space-delimited filter patterns are not supported/);
    await refused({ filterPattern: "%ERR.R%" }, /regular expressions/);
    await refused({ filterPattern: "?ERROR WARN" }, /\?terms mixed/);
    await refused({ filterPattern: '"unbalanced' }, /unbalanced quotes/);
    await refused({ nextToken: "not-a-token" }, /nextToken is invalid/);
    await expect(
      logs.send(new FilterLogEventsCommand({ logGroupName: "/aws/sagemaker/Endpoints/dc-none" })),
    ).rejects.toMatchObject({ name: "ResourceNotFoundException" });
  });
});

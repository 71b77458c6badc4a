import { expect, it } from "vitest";
import { testStackFixture } from "../test-support/stack-fixture.ts";
import { loadStackPolicies } from "./stack-policies.ts";
import { consoleActionsTable } from "./test-support/console-actions-table.ts";

it("docs/console-iam-actions.md lists every action of the console's policy with its resources in the reference and in local IAM (after a change to either, run this file with -u)", async () => {
  const { console: consolePolicies } = loadStackPolicies(testStackFixture().stack, {
    accountId: "000000000000",
    region: "us-east-1",
    namePrefix: "dc-",
    bucketName: "decision-console-local",
  });
  const table = await consoleActionsTable(consolePolicies.policies);
  expect(table).not.toContain("| `?");
  await expect(table).toMatchFileSnapshot("../../../docs/console-iam-actions.md");
}, 120_000);

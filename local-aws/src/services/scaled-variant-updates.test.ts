import type { ProductionVariantInstanceType } from "@aws-sdk/client-sagemaker";
import { describe, expect, it } from "vitest";
import type { ProductionVariantDoc } from "../sagemaker-store.ts";
import { checkUpdateOfScaledVariants } from "./application-auto-scaling-rules.ts";

const cpu = (
  VariantName: string,
  InstanceType: ProductionVariantInstanceType,
  ModelName = "m1",
): ProductionVariantDoc => ({
  VariantName,
  ModelName,
  InstanceType,
  InitialInstanceCount: 1,
});
const pools = (VariantName: string, types: ProductionVariantInstanceType[]): ProductionVariantDoc => ({
  VariantName,
  ModelName: "m1",
  InitialInstanceCount: 1,
  InstancePools: types.map((InstanceType, index) => ({ InstanceType, Priority: index + 1 })),
});
const check = (scaled: string[], current: ProductionVariantDoc[], next: ProductionVariantDoc[]) => () =>
  checkUpdateOfScaledVariants("dc-demo", scaled, current, next);

describe("an UpdateEndpoint of variants registered with Application Auto Scaling", () => {
  it("allows a new model, and any change of a variant without a scalable target", () => {
    expect(check(["a"], [cpu("a", "ml.c6i.xlarge")], [cpu("a", "ml.c6i.xlarge", "m2")])).not.toThrow();
    expect(
      check(
        ["a"],
        [cpu("a", "ml.c6i.xlarge"), cpu("b", "ml.c6i.xlarge")],
        [cpu("a", "ml.c6i.xlarge"), cpu("b", "ml.c6i.4xlarge")],
      ),
    ).not.toThrow();
  });

  it("refuses a new instance type, a move to pools, pools in another order, and removing the variant", () => {
    const refusal = { name: "ValidationException", message: expect.stringContaining('"[a]" of endpoint "dc-demo"') };
    expect(check(["a"], [cpu("a", "ml.c6i.xlarge")], [cpu("a", "ml.c6i.4xlarge")])).toThrow(
      expect.objectContaining(refusal),
    );
    expect(check(["a"], [cpu("a", "ml.c6i.xlarge")], [pools("a", ["ml.c6i.xlarge"])])).toThrow(
      expect.objectContaining(refusal),
    );
    expect(
      check(["a"], [pools("a", ["ml.g6.xlarge", "ml.g5.xlarge"])], [pools("a", ["ml.g5.xlarge", "ml.g6.xlarge"])]),
    ).toThrow(expect.objectContaining(refusal));
    expect(check(["a"], [cpu("a", "ml.c6i.xlarge"), cpu("b", "ml.c6i.xlarge")], [cpu("b", "ml.c6i.xlarge")])).toThrow(
      expect.objectContaining(refusal),
    );
  });
});

import type { DescribeEndpointCommandOutput, ListEndpointsCommandInput } from "@aws-sdk/client-sagemaker";
import { describe, expectTypeOf, it } from "vitest";
import type { OnTheWire } from "./typed-operations.ts";

// Checked by `tsc` (npm run typecheck); the calls themselves do nothing at run time.
describe("an SDK type on the wire", () => {
  it("carries timestamps as epoch seconds and required members as present", () => {
    type Wire = OnTheWire<{ required: string | undefined; at: Date | undefined; optional?: string; list?: Date[] }>;
    expectTypeOf<Wire>().toEqualTypeOf<{ required: string; at: number; optional?: string; list?: number[] }>();
  });

  it("drops the client's $metadata and keeps the service model's members", () => {
    type Described = OnTheWire<DescribeEndpointCommandOutput>;
    expectTypeOf<Described>().not.toHaveProperty("$metadata");
    expectTypeOf<Described["EndpointName"]>().toEqualTypeOf<string>();
    expectTypeOf<Described["CreationTime"]>().toEqualTypeOf<number>();
    expectTypeOf<OnTheWire<ListEndpointsCommandInput>["CreationTimeAfter"]>().toEqualTypeOf<number | undefined>();
  });
});

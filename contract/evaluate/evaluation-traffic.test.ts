import { describe, expect, it } from "vitest";
import {
  asyncEvaluationInferenceId,
  evaluationInferenceId,
  gatewayInferenceId,
  isEvaluationTraffic,
  isGatewayTraffic,
} from "./evaluation-traffic.ts";

/** SageMaker's InferenceId: "Maximum length of 64", pattern `\A\S[\p{Print}]*\z` (InvokeEndpoint API reference). */
const sageMakerAccepts = (id: string) => id.length <= 64 && /^\S[\x20-\x7e]*$/.test(id);

describe("the console's own traffic, told apart by its InferenceId", () => {
  it("tags the gateway's decisions, fresh each call, as gateway traffic and not as evaluation", () => {
    const [first, second] = [gatewayInferenceId(), gatewayInferenceId()];
    expect(first).toMatch(/^dc-gw-[0-9a-f-]{36}$/);
    expect(first).not.toBe(second);
    expect(isGatewayTraffic(first)).toBe(true);
    expect(isEvaluationTraffic(first)).toBe(false);
    expect(sageMakerAccepts(first)).toBe(true);
  });

  it("tags evaluation requests, synchronous and asynchronous, as evaluation traffic and not as gateway", () => {
    const item = evaluationInferenceId({ runId: "6f1c1a9e-2b7d-4c1e-9a3f-0d2e4b6c8a10", slot: 3, position: 99999 });
    const queued = asyncEvaluationInferenceId();
    for (const id of [item, queued]) {
      expect(isEvaluationTraffic(id)).toBe(true);
      expect(isGatewayTraffic(id)).toBe(false);
      expect(sageMakerAccepts(id)).toBe(true);
    }
    expect(asyncEvaluationInferenceId()).not.toBe(queued);
  });

  it("reads any other id, or none, as a direct caller's", () => {
    for (const id of ["0b6f2a52-5c36-4a4e-9d0e-0d6f7f8b9a10", "order-1234", null, undefined]) {
      expect(isGatewayTraffic(id)).toBe(false);
      expect(isEvaluationTraffic(id)).toBe(false);
    }
  });
});

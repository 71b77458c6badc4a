"use client";

import type { ShadowPromotionState } from "@/contract/endpoints/shadow-test.ts";
import { Alert } from "../ui/alert.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { useShadowPromotionState } from "./monitoring-queries.ts";

/** A promotion's background outcome on the page that started it: waiting for its update, or given up and why. */
export function PromotionStateNote({ state }: { state: ShadowPromotionState }) {
  if (state.waiting) {
    return (
      <p className="text-sm text-slate-700" role="status">
        Promotion asked by {state.waiting.requestedBy} is waiting for the endpoint to be InService before its update
        starts (try {state.waiting.attempts}){state.waiting.lastError && `; last error: ${state.waiting.lastError}`}.
      </p>
    );
  }
  if (!state.lastFailure) return null;
  return (
    <Alert title="The last shadow promotion was given up">
      Asked by {state.lastFailure.requestedBy}, given up <Timestamp at={state.lastFailure.at} />:{" "}
      {state.lastFailure.reason}
    </Alert>
  );
}

export function PromotionState({ name }: { name: string }) {
  const state = useShadowPromotionState(name);
  return state.data ? <PromotionStateNote state={state.data} /> : null;
}

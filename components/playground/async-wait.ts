import { wakeAlarmDelaySeconds } from "@/contract/endpoints/scale-to-zero.ts";

export interface AsyncWaitFacts {
  /** The endpoint's instances now (DescribeEndpoint, refreshed while the page waits). */
  instanceCount: number;
  /** Whether the console's scale-to-zero policies (and their wake-up alarm) are on the endpoint. */
  scaleToZero: boolean;
  /** How long the endpoint's latest start from 0 instances took, if it ever made one. */
  coldStartSeconds: number | null;
  waitedMs: number;
}

export interface AsyncWaitStatus {
  title: string;
  text: string;
}

const minutes = (seconds: number) =>
  seconds < 90 ? `${Math.round(seconds)} s` : `${Math.round((seconds / 60) * 10) / 10} min`;

/**
 * What the playground says while an asynchronous request waits: at 0 instances, that a cold start is under way
 * (or cannot come, without scale to zero) and how long it is expected to take, from the wake-up alarm's periods
 * and the endpoint's last observed start from zero; else that the request is queued or running.
 */
export function asyncWaitStatus(facts: AsyncWaitFacts): AsyncWaitStatus {
  const waited = Math.round(facts.waitedMs / 1000);
  if (facts.instanceCount > 0) {
    return { title: "Queued on the asynchronous endpoint", text: `Queued or running (${waited} s so far).` };
  }
  if (!facts.scaleToZero) {
    return {
      title: "The endpoint has 0 instances",
      text: `Waiting ${waited} s. The endpoint runs no instance and has no scale-to-zero wake-up: the request stays queued until someone scales it out.`,
    };
  }
  const start =
    facts.coldStartSeconds === null
      ? "then an instance starts (this endpoint has not been seen starting from zero yet)"
      : `then an instance starts (its last start from zero took ${minutes(facts.coldStartSeconds)})`;
  const expected = wakeAlarmDelaySeconds + (facts.coldStartSeconds ?? 0);
  const left = expected - waited;
  return {
    title: "Cold start under way: the endpoint is at 0 instances",
    text:
      `Waiting ${waited} s. The wake-up alarm goes off after ${minutes(wakeAlarmDelaySeconds)} of queued requests with no instance, ${start}. ` +
      (facts.coldStartSeconds === null
        ? `Expect at least ${minutes(expected)} in all.`
        : left > 0
          ? `Expected in about ${minutes(expected)} in all (${minutes(left)} more).`
          : `Expected in about ${minutes(expected)} in all; this start is taking longer.`),
  };
}

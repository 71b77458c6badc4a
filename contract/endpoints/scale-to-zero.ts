/**
 * The HasBacklogWithoutCapacity alarm that wakes a scaled-to-zero asynchronous endpoint (server/autoscaling/
 * scale-to-zero.ts puts it): it goes off after `evaluationPeriods` periods of `periodSeconds` with requests waiting
 * and no instance, and only then does the step policy add an instance.
 */
export const wakeAlarm = { periodSeconds: 60, evaluationPeriods: 2 } as const;

/** The least time from a request's arrival at 0 instances to the wake-up alarm going off. */
export const wakeAlarmDelaySeconds = wakeAlarm.periodSeconds * wakeAlarm.evaluationPeriods;

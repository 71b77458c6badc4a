import type { Db } from "../database.ts";
import type { LocalPrincipal } from "../local-credentials.ts";
import { AlarmActions } from "./alarm-actions.ts";
import { evaluateAlarm, evaluationRange, type PeriodData } from "./alarm-evaluation.ts";
import { AlarmHistory } from "./alarm-history.ts";
import { AlarmStore } from "./alarm-store.ts";
import { type AlarmState, alarmArn, type MetricAlarmDefinition, type StoredAlarm } from "./metric-alarm.ts";
import type { MetricSource } from "./metric-source.ts";

/** A state change of one alarm, told to `onTransition` listeners (local SageMaker's deployments watch these). */
export interface AlarmTransition {
  alarm: StoredAlarm;
  previousState: AlarmState;
}

export interface AlarmEngineOptions {
  /** Epoch milliseconds (tests hold it). */
  clock?: () => number;
  /** How often every alarm is evaluated; 10 s, the shortest alarm period CloudWatch offers. 0: only on demand. */
  evaluationIntervalMs?: number;
}

/**
 * Local CloudWatch's metric alarms: stored definitions and states, evaluated (alarm-evaluation.ts) against the metrics
 * GetMetricData shows (metric-source.ts: published datapoints and invocation samples), on a timer and whenever an
 * alarm is put.
 *
 * Two seams for other parts of local mode:
 * - `actions` (alarm-actions.ts): each state change runs the ARNs of the alarm's OKActions, AlarmActions or
 *   InsufficientDataActions through the handlers registered there; a handler registered for Application Auto Scaling
 *   policy ARNs makes step-scaling policies act on alarms, as on AWS (with `repeatWhileInState`, once per alarm
 *   period while the alarm stays in ALARM).
 * - `onTransition`: in-process listeners of every state change (SageMaker's deployment guardrails roll back on
 *   ALARM; SetAlarmState counts, as on AWS).
 */
export class AlarmEngine {
  readonly actions = new AlarmActions();
  /** What DescribeAlarmHistory returns: each alarm's creation, updates, deletion and state changes. */
  readonly history: AlarmHistory;
  private readonly store: AlarmStore;
  private readonly listeners = new Set<(transition: AlarmTransition) => void>();
  private readonly lastRepeat = new Map<string, number>();
  private readonly clock: () => number;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    db: Db,
    private readonly metrics: MetricSource,
    options: AlarmEngineOptions = {},
  ) {
    this.store = new AlarmStore(db);
    this.history = new AlarmHistory(db);
    this.clock = options.clock ?? Date.now;
    const interval = options.evaluationIntervalMs ?? 10_000;
    if (interval > 0) {
      this.timer = setInterval(() => this.evaluateAll(), interval);
      this.timer.unref();
    }
  }

  get(name: string): StoredAlarm | undefined {
    return this.store.get(name);
  }

  all(): StoredAlarm[] {
    return this.store.all();
  }

  /** PutMetricAlarm: creates the alarm (INSUFFICIENT_DATA until evaluated) or replaces its definition. */
  put(definition: MetricAlarmDefinition, region: string, accountId: string, putBy?: LocalPrincipal): StoredAlarm {
    const now = this.clock();
    const existing = this.store.get(definition.AlarmName);
    const alarm: StoredAlarm = existing
      ? { ...existing, definition, configurationUpdatedAt: now, putBy }
      : {
          definition,
          arn: alarmArn(region, accountId, definition.AlarmName),
          configurationUpdatedAt: now,
          state: "INSUFFICIENT_DATA",
          stateReason: "Unchecked: Initial alarm creation",
          stateUpdatedAt: now,
          stateTransitionedAt: now,
          putBy,
        };
    this.store.save(alarm);
    this.configurationItem(definition.AlarmName, existing ? "Update" : "Create", definition, now);
    this.evaluate(alarm);
    return this.store.get(definition.AlarmName) ?? alarm;
  }

  /**
   * SetAlarmState: the state holds until the next evaluation finds otherwise; a change runs the state's actions and
   * is told to the transition listeners.
   */
  setState(name: string, state: AlarmState, reason: string, reasonData?: string): StoredAlarm | undefined {
    const alarm = this.store.get(name);
    if (!alarm) return undefined;
    this.transition(alarm, state, reason, reasonData);
    return this.store.get(name);
  }

  delete(names: readonly string[]): void {
    const now = this.clock();
    for (const name of names) {
      const alarm = this.store.get(name);
      if (alarm) this.configurationItem(name, "Delete", alarm.definition, now);
    }
    this.store.delete(names);
    for (const name of names) this.lastRepeat.delete(name);
  }

  onTransition(listener: (transition: AlarmTransition) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  evaluateAll(): void {
    for (const alarm of this.store.all()) this.evaluate(alarm);
  }

  close(): void {
    clearInterval(this.timer);
    this.listeners.clear();
  }

  private range(definition: MetricAlarmDefinition, now: number): PeriodData[] {
    const { from, to } = evaluationRange(definition, now);
    const period = definition.Period * 1000;
    const starts = Array.from({ length: definition.EvaluationPeriods }, (_, i) => from + i * period);
    const dims = Object.fromEntries(definition.Dimensions.map((d) => [d.Name, d.Value]));
    const buckets = this.metrics.periodValues(
      {
        namespace: definition.Namespace,
        metricName: definition.MetricName,
        dimensions: dims,
        unit: definition.Unit,
        statistic: definition.Statistic ?? definition.ExtendedStatistic ?? "",
        periodMs: period,
        alignMs: 0,
      },
      from,
      to,
    );
    return starts.map((start) => ({ start, values: buckets.get(start) ?? [] }));
  }

  private evaluate(alarm: StoredAlarm): void {
    const now = this.clock();
    const result = evaluateAlarm(alarm.definition, this.range(alarm.definition, now), now);
    if (result.state && result.state !== alarm.state) {
      this.transition(alarm, result.state, result.reason, result.reasonData);
      return;
    }
    const name = alarm.definition.AlarmName;
    if (!this.actions.wantsRepeats(alarm)) return;
    const last = this.lastRepeat.get(name) ?? alarm.stateTransitionedAt;
    if (now - last < alarm.definition.Period * 1000) return;
    this.lastRepeat.set(name, now);
    this.actions.dispatch(alarm, alarm.state, true, now);
  }

  private transition(alarm: StoredAlarm, state: AlarmState, reason: string, reasonData?: string): void {
    const now = this.clock();
    const previousState = alarm.state;
    const changed: StoredAlarm = {
      ...alarm,
      state,
      stateReason: reason,
      stateReasonData: reasonData,
      stateUpdatedAt: now,
      stateTransitionedAt: state === previousState ? alarm.stateTransitionedAt : now,
    };
    this.store.save(changed);
    if (state === previousState) return;
    this.history.add({
      alarmName: alarm.definition.AlarmName,
      at: now,
      itemType: "StateUpdate",
      summary: `Alarm updated from ${previousState} to ${state}`,
      data: JSON.stringify({
        version: "1.0",
        oldState: { stateValue: previousState, stateReason: alarm.stateReason },
        newState: {
          stateValue: state,
          stateReason: reason,
          ...(reasonData ? { stateReasonData: jsonOrText(reasonData) } : {}),
        },
      }),
    });
    this.lastRepeat.set(alarm.definition.AlarmName, now);
    this.actions.dispatch(changed, previousState, false, now);
    for (const listener of this.listeners) listener({ alarm: changed, previousState });
  }

  /** A ConfigurationUpdate item as AWS words it: `Alarm "<name>" created` (updated, deleted), the alarm as data. */
  private configurationItem(
    name: string,
    type: "Create" | "Update" | "Delete",
    definition: MetricAlarmDefinition,
    at: number,
  ): void {
    const verb = { Create: "created", Update: "updated", Delete: "deleted" }[type];
    const key = { Create: "createdAlarm", Update: "updatedAlarm", Delete: "deletedAlarm" }[type];
    this.history.add({
      alarmName: name,
      at,
      itemType: "ConfigurationUpdate",
      summary: `Alarm "${name}" ${verb}`,
      data: JSON.stringify({ version: "1.0", type, [key]: definition }),
    });
  }
}

function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

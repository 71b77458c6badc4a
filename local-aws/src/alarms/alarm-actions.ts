import type { AuthorizationQuery } from "../iam/evaluate.ts";
import type { LocalPrincipal } from "../local-credentials.ts";
import type { AlarmState, StoredAlarm } from "./metric-alarm.ts";

/** What an alarm action handler is told: the action it serves and the alarm that asked for it. */
export interface AlarmActionEvent {
  /** One ARN of the alarm's OKActions, AlarmActions or InsufficientDataActions. */
  actionArn: string;
  alarmName: string;
  alarmArn: string;
  state: AlarmState;
  previousState: AlarmState;
  reason: string;
  /** False for a transition; true when the alarm stayed in the state and the handler asked to hear it again. */
  repeated: boolean;
  /** Epoch milliseconds. */
  at: number;
}

/**
 * A service that alarm actions can point at. Application Auto Scaling, for one, registers a handler for its
 * scaling-policy ARNs (`arn:aws:autoscaling:<region>:<account>:scalingPolicy:...`): a step-scaling policy set as an
 * alarm's AlarmActions then runs when the alarm goes to ALARM (scale-to-zero and back out).
 */
export interface AlarmActionHandler {
  /** Which action ARNs this handler serves. */
  matches(actionArn: string): boolean;
  /**
   * CloudWatch invokes Auto Scaling actions again for every period the alarm stays in the state (SNS and most other
   * actions only on the transition): true asks for those repeats, once per alarm period.
   */
  repeatWhileInState?: boolean;
  /** What acting on the ARN would take the alarm's creator, as IAM queries (none: nothing to act on). */
  permissionsFor(actionArn: string, region: string): AuthorizationQuery[];
  handle(event: AlarmActionEvent): void | Promise<void>;
}

/** Whether the principal may perform every query (local IAM). */
export type CreatorCheck = (creator: LocalPrincipal, region: string, queries: AuthorizationQuery[]) => boolean;

function actionsFor(alarm: StoredAlarm): string[] {
  const { definition } = alarm;
  if (!definition.ActionsEnabled) return [];
  if (alarm.state === "ALARM") return definition.AlarmActions;
  if (alarm.state === "OK") return definition.OKActions;
  return definition.InsufficientDataActions;
}

/**
 * The one seam between local CloudWatch and the services its alarms act on: alarms name action ARNs, handlers
 * registered here serve them. An ARN no handler serves (SNS, Lambda, EC2 actions) is logged and skipped, as local
 * mode serves no such service. A failing handler is logged; it never changes the alarm.
 *
 * An alarm never acts on a resource its creator could not act on: each action runs only when the principal that put
 * the alarm may do what the handler says acting takes (`permissionsFor`), else it is logged and skipped. CloudWatch's
 * reference says the same of EC2 actions ("If you have read/write permissions for Amazon CloudWatch but not for
 * Amazon EC2, you can still create an alarm, but the stop or terminate actions won't be performed").
 */
export class AlarmActions {
  private readonly handlers = new Set<AlarmActionHandler>();
  /** Until local IAM is attached, no creator may act through an alarm (alarms that services create always may). */
  private creatorMay: CreatorCheck = () => false;

  /** Holds every alarm's creator to local IAM: its actions run only where `check` allows the creator. */
  holdCreatorsTo(check: CreatorCheck): void {
    this.creatorMay = check;
  }

  private permitted(alarm: StoredAlarm, handler: AlarmActionHandler, actionArn: string): boolean {
    if (!alarm.putBy) return true;
    const region = alarm.arn.split(":")[3] ?? "";
    if (this.creatorMay(alarm.putBy, region, handler.permissionsFor(actionArn, region))) return true;
    console.warn(
      JSON.stringify({
        level: "warn",
        msg: "local alarm action not performed: the alarm's creator may not act on it",
        alarm: alarm.definition.AlarmName,
        action: actionArn,
      }),
    );
    return false;
  }

  /** Adds a handler; the returned function removes it again. */
  register(handler: AlarmActionHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /** Runs the actions of the alarm's (new) state: every handler on a transition, repeat-asking ones otherwise. */
  dispatch(alarm: StoredAlarm, previousState: AlarmState, repeated: boolean, at: number): void {
    for (const actionArn of actionsFor(alarm)) {
      const handlers = [...this.handlers].filter(
        (handler) => handler.matches(actionArn) && (!repeated || handler.repeatWhileInState),
      );
      if (handlers.length === 0 && !repeated) {
        console.warn(
          JSON.stringify({
            level: "warn",
            msg: "local alarm action not served",
            alarm: alarm.definition.AlarmName,
            action: actionArn,
          }),
        );
      }
      const event: AlarmActionEvent = {
        actionArn,
        alarmName: alarm.definition.AlarmName,
        alarmArn: alarm.arn,
        state: alarm.state,
        previousState,
        reason: alarm.stateReason,
        repeated,
        at,
      };
      for (const handler of handlers.filter((h) => this.permitted(alarm, h, actionArn))) {
        Promise.resolve()
          .then(() => handler.handle(event))
          .catch((error: unknown) =>
            console.error(
              JSON.stringify({
                level: "error",
                msg: "local alarm action failed",
                action: actionArn,
                error: String(error),
              }),
            ),
          );
      }
    }
  }

  /** Whether any handler asks for repeats of this alarm's current actions (so the engine tracks its periods). */
  wantsRepeats(alarm: StoredAlarm): boolean {
    return actionsFor(alarm).some((arn) =>
      [...this.handlers].some((handler) => handler.repeatWhileInState && handler.matches(arn)),
    );
  }
}

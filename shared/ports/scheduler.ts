/**
 * The scheduler port: one-time schedules that invoke a worker with a payload at a wall-clock time in a time zone
 * (scheduled messages, reminders, the deletion grace period, exports). Only workers call it: an API request records
 * a `schedule.requested` / `schedule.cancel_requested` outbox event with its change, and the outbox relay
 * (shared/use-cases/schedule-relay.ts, in functions/webhook-fanout) creates or deletes the schedule; the workspace
 * purge deletes an organization's pending ones. In AWS (`SCHEDULER=aws`, the default)
 * they are EventBridge Scheduler schedules (`at(...)` with `ScheduleExpressionTimezone`, deleted after they run,
 * retried, then dead-lettered); locally (`SCHEDULER=local`) entries of the local runtime's schedule store, fired
 * by its poller against the request clock (lib/local/scheduler.ts).
 */
import { config } from '#ports/config';

/**
 * The workers a schedule can invoke: `scheduled-send` (a scheduled email), `workspace-purge` (a workspace's purge
 * after its deletion grace period), `workspace-export` (building a workspace export archive, right away).
 */
export type ScheduleTarget = 'scheduled-send' | 'workspace-purge' | 'workspace-export';

/** A one-time schedule. */
export interface OneTimeSchedule {
  /** Unique name (letters, digits, `-`, `_`, `.`; at most 64): EventBridge Scheduler's own limits. */
  name: string;
  /** Wall-clock time `YYYY-MM-DDTHH:mm:ss` in `timezone`. */
  at: string;
  /** IANA time zone, e.g. `America/Chicago`. */
  timezone: string;
  target: ScheduleTarget;
  /** What the target receives (a small JSON object). */
  payload: Record<string, unknown>;
}

export interface Scheduler {
  /**
   * Creates the schedule; idempotent by name (a retried request finds it made).
   * @returns `created`, or `exists` when a schedule of that name is there already (EventBridge Scheduler's
   *   `ConflictException`)
   * @throws Error when the scheduler refuses it or cannot be reached (after the SDK's retries)
   */
  create(schedule: OneTimeSchedule): Promise<'created' | 'exists'>;
  /** Deletes it. @returns false when there was none (already ran, or never created) */
  delete(name: string): Promise<boolean>;
}

let instance: Promise<Scheduler> | undefined;

/** The scheduler for this environment (loaded on first use). */
export function scheduler(): Promise<Scheduler> {
  instance ??=
    config.localScheduler ? import('#ports/scheduler/local').then((m) => m.localScheduler()) : import('#ports/scheduler/aws').then((m) => m.awsScheduler());
  return instance;
}

/** Drops the cached scheduler (tests and the local runtime). */
export function resetScheduler(): void {
  instance = undefined;
}

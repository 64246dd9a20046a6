/**
 * Schedule writes behind the outbox (issue 24): an API request never calls EventBridge Scheduler. It commits its
 * change with a `schedule.requested` or `schedule.cancel_requested` outbox event in ONE `TransactWriteItems` and
 * answers; the outbox relay (shared/use-cases/schedule-relay.ts, run by functions/webhook-fanout) creates or deletes
 * the schedule from the table stream. So the API groups bundle no Scheduler client and hold no
 * `scheduler:CreateSchedule` / `iam:PassRole`, and a change is never left without its schedule request (nor a
 * schedule without its change). These are the only emitters of the two event types.
 */
import { outboxPut } from '#db/outbox';
import type { ScheduleRequestData, ScheduleSubject } from '#events/catalog';
import type { Actor } from '#events/outbox';

/** The outbox `Put` asking the relay to create `schedule`; `subject` is what shows a failure to create it. */
export const scheduleRequestPut = (actor: Actor, schedule: ScheduleRequestData, subject: ScheduleSubject, now: Date) =>
  outboxPut(actor, 'schedule.requested', { schedule, subject }, now);

/** The outbox `Put` asking the relay to delete schedule `name` (one already gone is done). */
export const scheduleCancelPut = (actor: Actor, name: string, subject: ScheduleSubject, now: Date) =>
  outboxPut(actor, 'schedule.cancel_requested', { name, subject }, now);

/**
 * The outbox relay's schedule step (issue 24): turns the `schedule.requested` and `schedule.cancel_requested` events
 * the API commits (shared/use-cases/schedule-requests.ts) into EventBridge Scheduler calls. It runs in the outbox
 * fan-out worker (functions/webhook-fanout), beside webhook fan-out, so the table stream keeps its two consumers.
 *
 * - Idempotent: a replayed record finds its schedule made (`exists`, done) or already deleted (done).
 * - A schedule that cannot be created after the SDK's retries (shared/ports/scheduler/aws.ts `SDK_ATTEMPTS`) is not
 *   retried from the stream (that would hold up every later event of the shard): its record shows it —
 *   a scheduled message or reminder ends `failed` and an export `failed`, each with `error` = `UNSCHEDULED_ERROR`;
 *   a deletion gets `scheduleError` (the workspace stays frozen, nothing is purged, the owner may cancel) — and it
 *   is logged with the event id and counted (`ScheduleRequestsFailed`, alarmed: lib/messaging-pipeline.ts).
 * - A schedule that cannot be deleted is logged and counted (`ScheduleCancelsFailed`), not retried: every target
 *   re-checks its record when it fires (a cancelled message, a reminder at another generation, a deletion no longer
 *   recorded are skipped), and a one-time schedule deletes itself after it ran. For the same reason the order of a
 *   request and its cancel (two outbox items, possibly on two stream shards) does not matter.
 *
 * Metrics (Count; dimension `service`): `ScheduleRequestsFailed`, `ScheduleCancelsFailed`.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { ScheduleSubject } from '#events/catalog';
import type { EventEnvelope } from '#events/outbox';
import { scheduler } from '#ports/scheduler';
import { transitionScheduledMessage } from '#db/scheduled-messages';
import { updateReminder } from '#db/reminders';
import { finishExport } from '#db/workspace-exports';
import { recordDeletionScheduleError } from '#db/workspace-deletion';
import { logger, metricSet } from '#observability/powertools';

/** Failures only: successes are the fan-out's invocations, and the account's metric budget is near its ceiling (test/unit/metric-dimensions.test.ts). */
export const SCHEDULE_RELAY_METRICS = metricSet(['ScheduleRequestsFailed', 'ScheduleCancelsFailed']);

/** What a user reads on a message, reminder or export whose schedule could not be created. */
export const UNSCHEDULED_ERROR = 'It could not be scheduled (the scheduler refused or could not be reached); schedule it again.';

/** What the relay did with one event. */
export type RelayOutcome = 'created' | 'exists' | 'deleted' | 'gone' | 'unscheduled' | 'not-deleted' | 'ignored';

/**
 * Creates or deletes the schedule an outbox event asks for; ignores every other event (and undefined).
 * @returns what it did
 * @throws Error only when a record that must show a failure could not be written (DynamoDB): the stream retries it
 */
export async function relaySchedule(envelope: EventEnvelope | undefined, now: Date): Promise<RelayOutcome> {
  if (envelope?.eventType === 'schedule.requested') {
    const { schedule, subject } = envelope.data;
    try {
      return await (await scheduler()).create(schedule);
    } catch (err) {
      SCHEDULE_RELAY_METRICS.add('ScheduleRequestsFailed', MetricUnit.Count, 1);
      logger.error('schedule not created; its record is marked', { orgId: envelope.organizationId, eventId: envelope.eventId, schedule: schedule.name, subject, error: err });
      await markUnscheduled(envelope.organizationId, subject, now);
      return 'unscheduled';
    }
  }
  if (envelope?.eventType === 'schedule.cancel_requested') {
    try {
      return (await (await scheduler()).delete(envelope.data.name)) ? 'deleted' : 'gone';
    } catch (err) {
      SCHEDULE_RELAY_METRICS.add('ScheduleCancelsFailed', MetricUnit.Count, 1);
      logger.warn('schedule not deleted; its target skips it when it fires', { orgId: envelope.organizationId, eventId: envelope.eventId, schedule: envelope.data.name, error: err });
      return 'not-deleted';
    }
  }
  return 'ignored';
}

/** Shows on the subject's record that its schedule will never fire (a record that moved on meanwhile is left as is). */
async function markUnscheduled(orgId: string, subject: ScheduleSubject, now: Date): Promise<void> {
  const updatedAt = now.toISOString();
  switch (subject.kind) {
    case 'scheduled_message':
      await transitionScheduledMessage(orgId, { id: subject.scheduledMessageId, transactionId: subject.transactionId }, 'pending', 'failed', now, { error: UNSCHEDULED_ERROR });
      return;
    case 'reminder':
      await updateReminder(orgId, { id: subject.reminderId, transactionId: subject.transactionId }, { from: 'pending', generation: subject.generation }, { status: 'failed', error: UNSCHEDULED_ERROR, updatedAt });
      return;
    case 'workspace_export':
      await finishExport(orgId, subject.exportId, { state: 'failed', error: UNSCHEDULED_ERROR, completedAt: null, expiresAt: null, s3Key: null, sizeBytes: null, recordCount: null, documentCount: null });
      return;
    case 'workspace_deletion':
      await recordDeletionScheduleError(orgId, subject.deletionId, 'The purge could not be scheduled, so nothing will be deleted; cancel the deletion and request it again.');
  }
}

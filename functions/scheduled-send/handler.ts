/**
 * The target of scheduled-message and reminder schedules (EventBridge Scheduler in AWS, the local scheduler's poller
 * locally): input `{orgId, scheduledMessageId}` → the message is sent once (shared/use-cases/messaging/scheduled-email.ts);
 * input `{orgId, transactionId, reminderId, generation}` → the reminder is sent once (shared/use-cases/reminders.ts).
 * A transient failure throws, so the scheduler retries and finally dead-letters the invocation.
 */
import { clockNow } from '#ports/clock';
import { sendScheduledEmail } from '#use-cases/messaging/scheduled-email';
import { sendReminder } from '#use-cases/reminder-send';
import type { ReminderFire } from '#use-cases/reminder-schedule';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger, metricSet, observedHandler, type MetricNameOf } from '#observability/powertools';

/** The schedule's input (shared/use-cases/messaging/scheduled-email.ts `scheduleDealEmail` sets it). */
export type ScheduledSendInput = { orgId: string; scheduledMessageId: string } | ReminderFire;

/** The worker's metrics (Count; dimension `service` only): one per outcome, not an `outcome` dimension. */
export const SCHEDULED_SEND_METRICS = metricSet(['ScheduledSendsSent', 'ScheduledSendsFailed', 'ScheduledSendsSkipped', 'ScheduledSendsStale']);

/** The metric each outcome counts under. */
const OUTCOME_METRIC: Readonly<Record<'sent' | 'failed' | 'skipped' | 'stale', MetricNameOf<typeof SCHEDULED_SEND_METRICS>>> = {
  sent: 'ScheduledSendsSent',
  failed: 'ScheduledSendsFailed',
  skipped: 'ScheduledSendsSkipped',
  stale: 'ScheduledSendsStale',
};

/**
 * Metrics (Count): `ScheduledSendsSent`, `ScheduledSendsFailed`, `ScheduledSendsSkipped`, or `ScheduledSendsStale` for a
 * reminder whose key date moved under it.
 * @throws Error when the input lacks a non-empty `orgId` and `scheduledMessageId` (or a reminder's `transactionId`,
 *   `reminderId` and integer `generation`): a malformed schedule lands in the failure queue, alarmed, rather than
 *   being dropped; or when the send failed transiently (retried)
 */
export const handler = observedHandler(async (input: ScheduledSendInput): Promise<{ outcome: 'sent' | 'failed' | 'skipped' | 'stale' }> => {
  const ok = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
  const given = (input ?? {}) as Partial<Record<string, unknown>>;
  let outcome: 'sent' | 'failed' | 'skipped' | 'stale';
  if (ok(given.orgId) && ok(given.reminderId) && ok(given.transactionId) && Number.isInteger(given.generation)) {
    const fire = input as ReminderFire;
    logger.appendKeys({ orgId: fire.orgId, reminderId: fire.reminderId });
    outcome = await sendReminder(fire, clockNow());
  } else if (ok(given.orgId) && ok(given.scheduledMessageId)) {
    logger.appendKeys({ orgId: given.orgId, scheduledMessageId: given.scheduledMessageId });
    outcome = await sendScheduledEmail(given.orgId, given.scheduledMessageId, clockNow());
  } else throw new Error('scheduled-send input needs orgId and scheduledMessageId, or orgId, transactionId, reminderId and generation');
  logger.info('scheduled send', { outcome });
  SCHEDULED_SEND_METRICS.add(OUTCOME_METRIC[outcome], MetricUnit.Count, 1);
  return { outcome };
});

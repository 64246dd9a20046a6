/**
 * What a scheduled-message or reminder schedule fires (EventBridge Scheduler in AWS, the local scheduler's poller
 * locally; the target is functions/scheduled-send/handler.ts): input `{orgId, scheduledMessageId}` → the message is
 * queued once for the send worker (shared/use-cases/messaging/scheduled-email.ts); input `{orgId, transactionId,
 * reminderId, generation}` → the reminder's email is queued once (shared/use-cases/reminder-send.ts). Neither holds a
 * transport: the send worker (functions/message-send) sends.
 *
 * Metrics (Count, one per invocation; one name per outcome, not an `outcome` dimension): `ScheduledSendsQueued`
 * (a scheduled message queued), `ScheduledSendsSent` (a reminder queued),
 * `ScheduledSendsFailed`, `ScheduledSendsSkipped`, or `ScheduledSendsStale` for a reminder whose key date moved
 * under it.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { sendScheduledEmail } from '#use-cases/messaging/scheduled-email';
import { sendReminder } from '#use-cases/reminder-send';
import type { ReminderFire } from '#use-cases/reminder-schedule';
import { logger, metricSet, type MetricNameOf } from '#observability/powertools';

/** The schedule's input (shared/use-cases/messaging/scheduled-email.ts `scheduleDealEmail` sets it). */
export type ScheduledSendInput = { orgId: string; scheduledMessageId: string } | ReminderFire;

/** What one scheduled send did. */
export type ScheduledSendOutcome = 'queued' | 'sent' | 'failed' | 'skipped' | 'stale';

/** The scheduled-send target's metrics (Count; dimension `service` only). */
export const SCHEDULED_SEND_METRICS = metricSet(['ScheduledSendsQueued', 'ScheduledSendsSent', 'ScheduledSendsFailed', 'ScheduledSendsSkipped', 'ScheduledSendsStale']);

/** The metric each outcome counts under. */
const OUTCOME_METRIC: Readonly<Record<ScheduledSendOutcome, MetricNameOf<typeof SCHEDULED_SEND_METRICS>>> = {
  queued: 'ScheduledSendsQueued',
  sent: 'ScheduledSendsSent',
  failed: 'ScheduledSendsFailed',
  skipped: 'ScheduledSendsSkipped',
  stale: 'ScheduledSendsStale',
};

/**
 * Sends what the schedule names, once, and counts the outcome; `orgId` and the message or reminder id are appended
 * to the logger.
 * @throws Error when the input lacks a non-empty `orgId` and `scheduledMessageId` (or a reminder's `transactionId`,
 *   `reminderId` and integer `generation`): a malformed schedule lands in the failure queue, alarmed, rather than
 *   being dropped; or when the send failed transiently (the scheduler retries)
 */
export async function runScheduledSend(input: unknown, now: Date): Promise<ScheduledSendOutcome> {
  const ok = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
  const given = (input ?? {}) as Partial<Record<string, unknown>>;
  let outcome: ScheduledSendOutcome;
  if (ok(given.orgId) && ok(given.reminderId) && ok(given.transactionId) && Number.isInteger(given.generation)) {
    const fire = input as ReminderFire;
    logger.appendKeys({ orgId: fire.orgId, reminderId: fire.reminderId });
    outcome = await sendReminder(fire, now);
  } else if (ok(given.orgId) && ok(given.scheduledMessageId)) {
    logger.appendKeys({ orgId: given.orgId, scheduledMessageId: given.scheduledMessageId });
    outcome = await sendScheduledEmail(given.orgId, given.scheduledMessageId, now);
  } else throw new Error('scheduled-send input needs orgId and scheduledMessageId, or orgId, transactionId, reminderId and generation');
  logger.info('scheduled send', { outcome });
  SCHEDULED_SEND_METRICS.add(OUTCOME_METRIC[outcome], MetricUnit.Count, 1);
  return outcome;
}

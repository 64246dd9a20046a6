/**
 * The target of scheduled-message schedules (EventBridge Scheduler in AWS, the local scheduler's poller locally):
 * input `{orgId, scheduledMessageId}` → the message is sent once (shared/use-cases/messaging/scheduled-email.ts).
 * A transient failure throws, so the scheduler retries and finally dead-letters the invocation.
 */
import { clockNow } from '#ports/clock';
import { sendScheduledEmail } from '#use-cases/messaging/scheduled-email';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger, metrics, observedHandler } from '#observability/powertools';

/** The schedule's input (shared/use-cases/messaging/scheduled-email.ts `scheduleDealEmail` sets it). */
export interface ScheduledSendInput {
  orgId: string;
  scheduledMessageId: string;
}

/**
 * Metrics (Count): `ScheduledSends` by `outcome` (sent, failed, skipped).
 * @throws Error when the input lacks a non-empty `orgId` or `scheduledMessageId` (a malformed schedule: it lands in
 *   the failure queue, alarmed, rather than being dropped), or when the send failed transiently (retried)
 */
export const handler = observedHandler(async (input: ScheduledSendInput): Promise<{ outcome: 'sent' | 'failed' | 'skipped' }> => {
  const ok = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
  if (!ok(input?.orgId) || !ok(input?.scheduledMessageId)) throw new Error('scheduled-send input needs orgId and scheduledMessageId');
  logger.appendKeys({ orgId: input.orgId, scheduledMessageId: input.scheduledMessageId });
  const outcome = await sendScheduledEmail(input.orgId, input.scheduledMessageId, clockNow());
  logger.info('scheduled send', { outcome });
  metrics.addDimensions({ outcome });
  metrics.addMetric('ScheduledSends', MetricUnit.Count, 1);
  return { outcome };
});

/**
 * The target of scheduled-message schedules (EventBridge Scheduler in AWS, the local scheduler's poller locally):
 * input `{orgId, scheduledMessageId}` → the message is sent once (shared/use-cases/messaging/scheduled-email.ts).
 * A transient failure throws, so the scheduler retries and finally dead-letters the invocation.
 */
import { clockNow } from '#ports/clock';
import { sendScheduledEmail } from '#use-cases/messaging/scheduled-email';

export interface ScheduledSendInput {
  orgId: string;
  scheduledMessageId: string;
}

export async function handler(input: ScheduledSendInput): Promise<{ outcome: 'sent' | 'failed' | 'skipped' }> {
  if (typeof input?.orgId !== 'string' || typeof input?.scheduledMessageId !== 'string') throw new Error('scheduled-send input needs orgId and scheduledMessageId');
  return { outcome: await sendScheduledEmail(input.orgId, input.scheduledMessageId, clockNow()) };
}

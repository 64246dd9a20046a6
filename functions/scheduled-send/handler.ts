/**
 * Scheduled-send target (EventBridge Scheduler in AWS, the local scheduler's poller locally): the schedule's input
 * goes to shared/use-cases/scheduled-send.ts, which sends the scheduled message or reminder once and counts it.
 */
import { clockNow } from '#ports/clock';
import { runScheduledSend, type ScheduledSendInput, type ScheduledSendOutcome } from '#use-cases/scheduled-send';
import { observedHandler } from '#observability/powertools';

/**
 * Lambda handler (EventBridge Scheduler target).
 * @throws Error for a malformed input or a transient failure: the scheduler retries, then dead-letters it
 */
export const handler = observedHandler(async (input: ScheduledSendInput): Promise<{ outcome: ScheduledSendOutcome }> => ({
  outcome: await runScheduledSend(input, clockNow()),
}));

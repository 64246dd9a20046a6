/**
 * Webhook retry schedule (the spec leaves it to us: "Failed deliveries are retried with backoff").
 * Default: the first attempt, then retries after 1 min, 5 min, 30 min, 2 h, 6 h and 12 h — 7 attempts
 * spread over about 20.6 hours — each delay with ±20 % jitter so a recovering endpoint is not hit by a
 * thundering herd. After the last failed attempt SQS moves the message to the dead-letter queue
 * (`maxReceiveCount` = `maxAttempts()`).
 *
 * `WEBHOOK_RETRY_SCHEDULE` (comma-separated seconds, e.g. `1,1,2`) replaces the delays, so tests and the
 * local benchmark run the same logic compressed.
 */
import { config } from '#ports/config';

export const DEFAULT_RETRY_SCHEDULE_SECONDS = [60, 300, 1800, 7200, 21_600, 43_200] as const;

/** SQS's largest visibility timeout (12 h). */
const MAX_VISIBILITY_SECONDS = 43_200;

/** Delays between attempts, in seconds. */
export function retryScheduleSeconds(env: string | undefined = config.webhookRetrySchedule): number[] {
  if (!env) return [...DEFAULT_RETRY_SCHEDULE_SECONDS];
  const parts = env.split(',').map((s) => s.trim());
  const parsed = parts.map(Number);
  if (parts.some((p) => p === '') || parsed.some((n) => !Number.isFinite(n) || n < 0)) throw new Error(`WEBHOOK_RETRY_SCHEDULE is invalid: ${env}`);
  return parsed;
}

/** Attempts in all: the first plus one per scheduled delay. */
export const maxAttempts = (schedule = retryScheduleSeconds()) => schedule.length + 1;

/**
 * Seconds to wait after failed attempt `attempt` (1-based), jittered ±20 % and rounded to whole seconds
 * (SQS visibility timeouts are integers); null when no attempt remains.
 * @param random a value in [0, 1) (injectable for tests)
 */
export function retryDelaySeconds(attempt: number, schedule = retryScheduleSeconds(), random = Math.random()): number | null {
  const base = schedule[attempt - 1];
  if (base === undefined) return null;
  const jittered = base * (0.8 + 0.4 * random);
  return Math.min(MAX_VISIBILITY_SECONDS, Math.max(0, Math.round(jittered)));
}

/**
 * What the deliveries of one SQS batch (one invocation of the delivery worker, up to 10 messages processed at
 * once) share, so that a batch costs fewer DynamoDB round trips than its messages one by one:
 * - the subscription: read once per subscription and batch (consistent read) instead of once per message. The
 *   messages of a batch start together, so they saw the same state before too; a breaker tripped by one of them
 *   stops the others' retries (their next receive reads it paused).
 * - the breaker's reset after a success: skipped when the read found no consecutive failures and the batch recorded
 *   none, the case where the conditional update (shared/db/webhooks.ts `recordWebhookSuccess`) changes nothing.
 * - the attempt items: written together (one `BatchWriteItem`) once every message of the batch has its attempt or
 *   has finished without one, or 1 s after the first one waits; each delivery record is still moved by its own
 *   conditional update, at once.
 */
import { getWebhook, type WebhookSubscription } from '#db/webhooks';
import { attemptItem, markDelivery, putAttempts, type DeliveryAttempt } from '#db/webhook-deliveries';

/** Longest wait of an attempt item for the rest of its batch, in ms (a slow receiver must not hold the others long). */
const LINGER_MS = 1000;

export interface DeliveryBatch {
  /** The subscription as read (consistently) for this batch. @throws NotFound */
  subscription(orgId: string, id: string): Promise<WebhookSubscription>;
  /** Notes a failure counted on the subscription's breaker during this batch. */
  failed(orgId: string, id: string): void;
  /** Whether a success has consecutive failures to clear (as far as this batch knows; true when unknown). */
  hasFailures(orgId: string, id: string): Promise<boolean>;
  /** Stores one attempt (with the batch's others) and moves its delivery. Resolves once both are written. */
  recordAttempt(orgId: string, a: DeliveryAttempt, now: Date): Promise<void>;
  /** A message that finished without `recordAttempt` (dropped unread, or an error): the batch stops waiting for it. */
  release(): void;
}

/**
 * A batch of `size` messages. Each message must end in exactly one `recordAttempt` or `release`, and the messages
 * must run concurrently (Powertools' `BatchProcessor` does): the attempt items are written when the last one arrives.
 */
export function deliveryBatch(size: number): DeliveryBatch {
  const subs = new Map<string, Promise<WebhookSubscription>>();
  const failures = new Set<string>();
  const waiting: { item: Record<string, unknown>; done: (err?: unknown) => void }[] = [];
  let open = size;
  let timer: NodeJS.Timeout | undefined;
  const key = (orgId: string, id: string) => `${orgId}/${id}`;

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = waiting.splice(0);
    if (!batch.length) return;
    putAttempts(batch.map((w) => w.item)).then(
      () => batch.forEach((w) => w.done()),
      (err) => batch.forEach((w) => w.done(err)),
    );
  };
  const settle = () => {
    open--;
    if (open <= 0) flush();
  };

  return {
    subscription(orgId, id) {
      const k = key(orgId, id);
      if (!subs.has(k)) subs.set(k, getWebhook(orgId, id, true));
      return subs.get(k)!;
    },
    failed: (orgId, id) => void failures.add(key(orgId, id)),
    async hasFailures(orgId, id) {
      const k = key(orgId, id);
      if (failures.has(k)) return true;
      const read = await subs.get(k)?.catch(() => undefined);
      return !read || read.consecutiveFailures > 0;
    },
    async recordAttempt(orgId, a, now) {
      const item = attemptItem(orgId, a, now);
      const stored = new Promise<void>((resolve, reject) => waiting.push({ item, done: (err) => (err ? reject(err) : resolve()) }));
      timer ??= setTimeout(flush, LINGER_MS);
      settle();
      await Promise.all([stored, markDelivery(orgId, a)]);
    },
    release: settle,
  };
}

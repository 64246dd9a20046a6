/**
 * What the deliveries of one SQS batch (one invocation of the delivery worker, up to 10 messages processed at
 * once) share, so that a batch costs fewer DynamoDB round trips than its messages one by one:
 * - the subscription: read once per subscription and batch (consistent read) instead of once per message. The
 *   messages of a batch start together, so they saw the same state before too; a breaker tripped by the batch's
 *   failures drops them all (their next receive would read it paused).
 * - the circuit breaker: one write per subscription and batch, once every message has counted its POST's result
 *   (shared/use-cases/delivery-breaker.ts: failures added together, or the count cleared when the batch has a success).
 * - the attempt items: written together (one `BatchWriteItem`) once every message of the batch has its attempt or
 *   has finished without one, or 1 s after the first one waits (shared/use-cases/batch-gather.ts); a delivery record is moved by its own conditional
 *   update, at once, when its delivery finishes (shared/db/webhook-deliveries.ts `markDelivery`: not for a retry).
 * - the visibility changes of the messages to retry (their retry delays): sent with the attempt items, in one
 *   `ChangeMessageVisibilityBatch` (one `ChangeMessageVisibility` for a single message).
 */
import { ChangeMessageVisibilityBatchCommand, ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import { getWebhook, type WebhookSubscription } from '#db/webhooks';
import { batchBreaker, type BatchBreaker } from '#use-cases/delivery-breaker';
import { gather } from '#use-cases/batch-gather';
import { attemptItem, markDelivery, putAttempts, type DeliveryAttempt } from '#db/webhook-deliveries';
import { sqs, webhookQueueUrl } from '#ports/sqs';
import { SQS_BATCH_ENTRIES } from '#use-cases/delivery-sends';

/** When SQS should deliver a message again: its receipt handle and the seconds until it is visible. */
export interface RetryLater {
  receiptHandle: string;
  visibilitySeconds: number;
}

export interface DeliveryBatch extends BatchBreaker {
  /** The subscription as read (consistently) for this batch. @throws NotFound */
  subscription(orgId: string, id: string): Promise<WebhookSubscription>;
  /**
   * Stores one attempt (with the batch's others), moves its delivery and, with `retry`, sets the message's visibility
   * (with the batch's others). Resolves once all are done.
   * @throws when the attempt item, the delivery or the visibility could not be written
   */
  recordAttempt(orgId: string, a: DeliveryAttempt, now: Date, retry?: RetryLater): Promise<void>;
  /** A message that finished without `recordAttempt` (dropped unread, or an error): the batch stops waiting for it. */
  release(): void;
}

/**
 * A batch of `size` messages. Each message must call exactly one of `count` (before its `recordAttempt`) and
 * `uncounted` (before it waits for anything of the batch), and end in exactly one `recordAttempt` or `release`; the
 * messages must run concurrently (Powertools' `BatchProcessor` does): the breaker is written when the last one has
 * counted, the attempt items when the last one arrives.
 */
export function deliveryBatch(size: number): DeliveryBatch {
  const subs = new Map<string, Promise<WebhookSubscription>>();
  const key = (orgId: string, id: string) => `${orgId}/${id}`;
  const breaker = batchBreaker(size, (orgId, id) => subs.get(key(orgId, id)));
  const attempts = gather<{ item: Record<string, unknown>; retry?: RetryLater }, void>(size, (gathered) => {
    const retries = gathered.filter((w) => w.retry);
    const written = Promise.all([
      putAttempts(gathered.map((w) => w.item)).then(() => undefined, (err: unknown) => err ?? new Error('attempt items not written')),
      changeVisibilities(retries.map((w) => w.retry!)),
    ]);
    return gathered.map((w) =>
      written.then(([itemsError, visibilityErrors]) => {
        const err = itemsError ?? (w.retry && visibilityErrors[retries.indexOf(w)]);
        if (err) throw err;
      }),
    );
  });

  return {
    subscription(orgId, id) {
      const k = key(orgId, id);
      if (!subs.has(k)) subs.set(k, getWebhook(orgId, id, true));
      return subs.get(k)!;
    },
    count: breaker.count,
    uncounted: breaker.uncounted,
    async recordAttempt(orgId, a, now, retry) {
      await Promise.all([attempts.add({ item: attemptItem(orgId, a, now), retry }), markDelivery(orgId, a)]); // no record write for a retry
    },
    release: attempts.skip,
  };
}

/**
 * Sets the visibility of messages to retry: `ChangeMessageVisibility` for one, else `ChangeMessageVisibilityBatch`es
 * of `SQS_BATCH_ENTRIES` (10, SQS quota). @returns each message's error (undefined when set); never throws
 */
async function changeVisibilities(retries: RetryLater[]): Promise<(unknown | undefined)[]> {
  if (!retries.length) return [];
  if (retries.length === 1) {
    const [r] = retries;
    return sqs()
      .send(new ChangeMessageVisibilityCommand({ QueueUrl: webhookQueueUrl(), ReceiptHandle: r.receiptHandle, VisibilityTimeout: r.visibilitySeconds }))
      .then(() => [undefined], (err: unknown) => [err ?? new Error('visibility not changed')]);
  }
  const errors: (unknown | undefined)[] = [];
  await Promise.all(
    Array.from({ length: Math.ceil(retries.length / SQS_BATCH_ENTRIES) }, async (_, c) => {
      const first = c * SQS_BATCH_ENTRIES;
      const chunk = retries.slice(first, first + SQS_BATCH_ENTRIES);
      try {
        const out = await sqs().send(
          new ChangeMessageVisibilityBatchCommand({ QueueUrl: webhookQueueUrl(), Entries: chunk.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle, VisibilityTimeout: r.visibilitySeconds })) }),
        );
        for (const f of out.Failed ?? []) errors[first + Number(f.Id)] = new Error(`SQS did not change the visibility: ${f.Code}${f.Message ? ` (${f.Message})` : ''}`);
      } catch (err) {
        chunk.forEach((_, i) => (errors[first + i] = err ?? new Error('visibility not changed')));
      }
    }),
  );
  return retries.map((_, i) => errors[i]);
}

/**
 * What the deliveries of one SQS batch (one invocation of the delivery worker, up to 10 messages processed at
 * once) share, so that a batch costs fewer DynamoDB round trips than its messages one by one:
 * - the subscription: read once per subscription and batch (consistent read) instead of once per message. The
 *   messages of a batch start together, so they saw the same state before too; a breaker tripped by one of them
 *   stops the others' retries (their next receive reads it paused).
 * - the breaker's reset after a success: made by the first success after the failures the batch knows of (its read,
 *   or failures recorded during the batch), not by every success of the batch; skipped when there are none, the
 *   case where the conditional update (shared/db/webhooks.ts `recordWebhookSuccess`) changes nothing. A success asks
 *   once the batch's failures are known (`failuresKnown`: when the attempt items are flushed), alongside their write.
 * - the attempt items: written together (one `BatchWriteItem`) once every message of the batch has its attempt or
 *   has finished without one, or 1 s after the first one waits; each delivery record is still moved by its own
 *   conditional update, at once.
 * - the visibility changes of the messages to retry (their retry delays): sent with the attempt items, in one
 *   `ChangeMessageVisibilityBatch` (one `ChangeMessageVisibility` for a single message).
 */
import { ChangeMessageVisibilityBatchCommand, ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import { getWebhook, type WebhookSubscription } from '#db/webhooks';
import { attemptItem, markDelivery, putAttempts, type DeliveryAttempt } from '#db/webhook-deliveries';
import { sqs, webhookQueueUrl } from '#ports/sqs';
import { SQS_BATCH_ENTRIES } from '#use-cases/delivery-sends';

/** Longest wait of an attempt item for the rest of its batch, in ms (a slow receiver must not hold the others long). */
const LINGER_MS = 1000;

/** When SQS should deliver a message again: its receipt handle and the seconds until it is visible. */
export interface RetryLater {
  receiptHandle: string;
  visibilitySeconds: number;
}

export interface DeliveryBatch {
  /** The subscription as read (consistently) for this batch. @throws NotFound */
  subscription(orgId: string, id: string): Promise<WebhookSubscription>;
  /** Notes a failure counted on the subscription's breaker during this batch. */
  failed(orgId: string, id: string): void;
  /**
   * Whether this success should clear the subscription's consecutive failures: true for the first success after the
   * failures this batch knows of (true when its read is unknown), false when there are none or a success of this
   * batch already cleared them.
   */
  clearsFailures(orgId: string, id: string): Promise<boolean>;
  /**
   * Stores one attempt (with the batch's others), moves its delivery and, with `retry`, sets the message's visibility
   * (with the batch's others). Resolves once all are done.
   * @throws when the attempt item, the delivery or the visibility could not be written
   */
  recordAttempt(orgId: string, a: DeliveryAttempt, now: Date, retry?: RetryLater): Promise<void>;
  /** A message that finished without `recordAttempt` (dropped unread, or an error): the batch stops waiting for it. */
  release(): void;
  /**
   * Resolves when the attempt items waiting now are flushed: every message of the batch has its attempt, or finished,
   * or 1 s passed. Its failures are counted by then (each failed attempt is counted before it is recorded). Call it
   * after `recordAttempt`.
   */
  failuresKnown(): Promise<void>;
}

/**
 * A batch of `size` messages. Each message must end in exactly one `recordAttempt` or `release`, and the messages
 * must run concurrently (Powertools' `BatchProcessor` does): the attempt items are written when the last one arrives.
 */
export function deliveryBatch(size: number): DeliveryBatch {
  const subs = new Map<string, Promise<WebhookSubscription>>();
  /** Failures recorded during the batch, by subscription. */
  const failures = new Map<string, number>();
  /** The failure count (as above) that a success of the batch cleared, by subscription. */
  const cleared = new Map<string, number>();
  const waiting: { item: Record<string, unknown>; retry?: RetryLater; done: (err?: unknown) => void }[] = [];
  /** Callers of `failuresKnown`, woken by the next flush. */
  const untilFlush: (() => void)[] = [];
  let open = size;
  let timer: NodeJS.Timeout | undefined;
  const key = (orgId: string, id: string) => `${orgId}/${id}`;

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = waiting.splice(0);
    for (const wake of untilFlush.splice(0)) wake();
    if (!batch.length) return;
    const retries = batch.filter((w) => w.retry);
    Promise.all([
      putAttempts(batch.map((w) => w.item)).then(() => undefined, (err: unknown) => err ?? new Error('attempt items not written')),
      changeVisibilities(retries.map((w) => w.retry!)),
    ]).then(([itemsError, visibilityErrors]) => batch.forEach((w) => w.done(itemsError ?? (w.retry && visibilityErrors[retries.indexOf(w)]))));
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
    failed(orgId, id) {
      const k = key(orgId, id);
      failures.set(k, (failures.get(k) ?? 0) + 1);
    },
    async clearsFailures(orgId, id) {
      const k = key(orgId, id);
      if (!failures.get(k)) {
        const read = await subs.get(k)?.catch(() => undefined);
        if (read && read.consecutiveFailures === 0 && !failures.get(k)) return false;
      }
      const known = failures.get(k) ?? 0;
      if (cleared.get(k) === known) return false;
      cleared.set(k, known);
      return true;
    },
    async recordAttempt(orgId, a, now, retry) {
      const item = attemptItem(orgId, a, now);
      const stored = new Promise<void>((resolve, reject) => waiting.push({ item, retry, done: (err) => (err ? reject(err) : resolve()) }));
      timer ??= setTimeout(flush, LINGER_MS);
      settle();
      await Promise.all([stored, markDelivery(orgId, a)]);
    },
    release: settle,
    failuresKnown: () => (waiting.length ? new Promise<void>((resolve) => untilFlush.push(resolve)) : Promise.resolve()),
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

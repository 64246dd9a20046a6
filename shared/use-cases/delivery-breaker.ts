/**
 * The circuit breaker's writes for one SQS batch of the delivery worker (shared/use-cases/delivery-batch.ts): each
 * message counts its POST's result (`count`) or says it made none (`uncounted`); once every message has (or 1 s
 * after the first count waits), each subscription's breaker gets one write for the batch instead of one per failed
 * attempt plus one per first success:
 * - failures only: `ADD consecutiveFailures :n` (shared/db/webhooks.ts `recordWebhookFailures`), which pauses the
 *   subscription when the count reaches the threshold (breaker enabled). Then every failure of that batch is
 *   dropped, not retried: the subscription is paused, and a retry would only be dropped on its next receive.
 * - any success: the count is cleared (`recordWebhookSuccess`, conditional on a count to clear), also when the batch
 *   has failures too. The batch's POSTs run concurrently, so they have no order among them; a success in the batch
 *   shows the endpoint answering now, and the next failure starts a new run. Per message it was the same: a
 *   success's clear waited until the batch's failures were counted. Skipped for successes alone when neither the
 *   batch's read of the subscription nor an earlier write of this batch left a count to clear.
 * A subscription with its breaker disabled is counted all the same: the API shows `consecutiveFailures` (its failed
 * attempts need not wait for the write: shared/use-cases/deliver-webhook.ts). The rule is the spec's ("Webhooks",
 * "Delivery": an endpoint that fails repeatedly is paused); the threshold and reset are docs/webhooks.md's.
 */
import { recordWebhookFailures, recordWebhookSuccess, type WebhookSubscription } from '#db/webhooks';

/** Longest wait of a count (or an attempt item) for the rest of its batch, in ms (a slow receiver must not hold the others long). */
export const LINGER_MS = 1000;

/**
 * What a counted attempt became: `counted` (the breaker did not trip), `tripped` (this batch's failures paused the
 * subscription; given to its first failure, which the `BreakerTrips` metric counts) or `paused` (its other failures).
 */
export type BreakerOutcome = 'counted' | 'tripped' | 'paused';

export interface BatchBreaker {
  /**
   * Counts one attempt's result on the subscription's breaker, with the batch's others.
   * @param now the attempt's time (a trip's `pausedAt`: the earliest failure of the write)
   * @returns what it became, once the batch's write for the subscription is done
   * @throws when that write failed
   */
  count(orgId: string, subscriptionId: string, ok: boolean, now: Date): Promise<BreakerOutcome>;
  /** A message that will not count an attempt (nothing was POSTed): the batch stops waiting for it. */
  uncounted(): void;
}

interface Waiting {
  orgId: string;
  id: string;
  ok: boolean;
  now: Date;
  done: (outcome: BreakerOutcome | undefined, err?: unknown) => void;
}

/**
 * The breaker of a batch of `size` messages; each must call exactly one of `count` and `uncounted`, concurrently.
 * @param readOf the batch's read of a subscription, if it made one (its `consecutiveFailures` says whether a success
 *   has a count to clear)
 */
export function batchBreaker(size: number, readOf: (orgId: string, id: string) => Promise<WebhookSubscription> | undefined): BatchBreaker {
  const waiting: Waiting[] = [];
  /** Whether the stored count may be above 0, by subscription, once a write of this batch knows it. */
  const mayHaveCount = new Map<string, boolean>();
  let open = size;
  let timer: NodeJS.Timeout | undefined;

  const hasCountToClear = async (orgId: string, id: string): Promise<boolean> => {
    const known = mayHaveCount.get(`${orgId}/${id}`);
    if (known !== undefined) return known;
    const read = await readOf(orgId, id)?.catch(() => undefined);
    return !read || read.consecutiveFailures !== 0;
  };

  /** The one write of a subscription's waiting counts. */
  const write = async (orgId: string, id: string, counts: Waiting[]): Promise<BreakerOutcome[]> => {
    const k = `${orgId}/${id}`;
    const failures = counts.filter((c) => !c.ok);
    if (failures.length < counts.length) {
      if (failures.length || (await hasCountToClear(orgId, id))) await recordWebhookSuccess(orgId, id);
      mayHaveCount.set(k, false);
      return counts.map(() => 'counted');
    }
    const earliest = new Date(Math.min(...failures.map((f) => f.now.getTime())));
    const tripped = await recordWebhookFailures(orgId, id, failures.length, earliest);
    mayHaveCount.set(k, true);
    return counts.map((_, i) => (!tripped ? 'counted' : i === 0 ? 'tripped' : 'paused'));
  };

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const bySubscription = new Map<string, Waiting[]>();
    for (const w of waiting.splice(0)) {
      const k = `${w.orgId}/${w.id}`;
      bySubscription.set(k, [...(bySubscription.get(k) ?? []), w]);
    }
    for (const counts of bySubscription.values()) {
      write(counts[0].orgId, counts[0].id, counts).then(
        (outcomes) => counts.forEach((c, i) => c.done(outcomes[i])),
        (err: unknown) => counts.forEach((c) => c.done(undefined, err ?? new Error('breaker not written'))),
      );
    }
  };
  const settle = () => {
    open--;
    if (open <= 0 && waiting.length) flush();
  };

  return {
    count(orgId, id, ok, now) {
      const outcome = new Promise<BreakerOutcome>((resolve, reject) => waiting.push({ orgId, id, ok, now, done: (o, err) => (err ? reject(err) : resolve(o!)) }));
      timer ??= setTimeout(flush, LINGER_MS);
      settle();
      return outcome;
    },
    uncounted: settle,
  };
}

/**
 * The circuit breaker's writes for one SQS batch of the delivery worker (shared/use-cases/delivery-batch.ts): each
 * message counts its POST's result (`count`) or says it made none (`uncounted`); once every message has (or 1 s
 * after the first count waits: shared/use-cases/batch-gather.ts), each subscription's breaker gets one write for the batch instead of one per failed
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
import { gather } from '#use-cases/batch-gather';

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

interface Count {
  orgId: string;
  id: string;
  ok: boolean;
  now: Date;
}

/**
 * The breaker of a batch of `size` messages; each must call exactly one of `count` and `uncounted`, concurrently.
 * @param readOf the batch's read of a subscription, if it made one (its `consecutiveFailures` says whether a success
 *   has a count to clear)
 */
export function batchBreaker(size: number, readOf: (orgId: string, id: string) => Promise<WebhookSubscription> | undefined): BatchBreaker {
  /** Whether the stored count may be above 0, by subscription, once a write of this batch knows it. */
  const mayHaveCount = new Map<string, boolean>();

  const hasCountToClear = async (orgId: string, id: string): Promise<boolean> => {
    const known = mayHaveCount.get(`${orgId}/${id}`);
    if (known !== undefined) return known;
    const read = await readOf(orgId, id)?.catch(() => undefined);
    return !read || read.consecutiveFailures !== 0;
  };

  /** The one write of a subscription's gathered counts. */
  const write = async (orgId: string, id: string, counts: Count[]): Promise<BreakerOutcome[]> => {
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

  const counts = gather<Count, BreakerOutcome>(size, (gathered) => {
    const bySubscription = new Map<string, Count[]>();
    for (const c of gathered) {
      const k = `${c.orgId}/${c.id}`;
      bySubscription.set(k, [...(bySubscription.get(k) ?? []), c]);
    }
    const written = new Map([...bySubscription].map(([k, group]) => [k, write(group[0].orgId, group[0].id, group).catch((err: unknown) => Promise.reject(err ?? new Error('breaker not written')))] as const));
    return gathered.map((c) => {
      const k = `${c.orgId}/${c.id}`;
      return written.get(k)!.then((outcomes) => outcomes[bySubscription.get(k)!.indexOf(c)]);
    });
  });

  return {
    count: (orgId, id, ok, now) => counts.add({ orgId, id, ok, now }),
    uncounted: counts.skip,
  };
}

/**
 * Webhook delivery end to end, the unhappy endpoint: a flaky receiver (seeded 30 % 503s and 10 % timeouts)
 * still gets every event once after dedupe, with the failures, retries and next-retry times listed by
 * `GET /webhooks/{id}/deliveries`; an endpoint that never recovers sees its deliveries marked `failed` and
 * the messages end in the dead-letter queue after the last scheduled attempt.
 */
import { describe, expect, it } from 'vitest';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { sqs } from '#ports/sqs';
import { CIRCUIT_BREAKER_THRESHOLD } from '#db/webhooks';
import { retryScheduleSeconds } from '#events/retry-schedule';
import type { DeliveryMessage } from '#db/webhook-deliveries';
import { deliveryRecords, listAllAttempts, outboxEvents, until, type Behaviour } from '../support/webhook-receiver.ts';
import { setupSubscribedDeal, useCleanups } from '../support/runtime-harness.ts';

const SCHEDULE = '1,1,1,1,1,1';
process.env.WEBHOOK_RETRY_SCHEDULE = SCHEDULE;

const cleanups = useCleanups();

const setup = (behaviour: Behaviour) => setupSubscribedDeal(cleanups, behaviour);

const isIso = (s: unknown) => typeof s === 'string' && new Date(s).toISOString() === s;

describe('webhook delivery to an unreliable endpoint', () => {
  it('a flaky receiver (30 % 503, 10 % timeouts, seeded) gets each event once after dedupe, unless all its attempts failed; failures and retries are listed', async () => {
    const h = await setup({ random: { failRate: 0.3, timeoutRate: 0.1, seed: 20_240_611 } });
    await h.maker.commit(39); // + transaction.created = 40
    const committed = await outboxEvents(h.org.orgId);
    expect(committed).toHaveLength(40);
    const wanted = committed.map((e) => e.eventId);

    // An event refused at all 7 attempts (40 % each: 0.4^7 = 0.16 % per event, about 6 % of runs over 40 events,
    // more when a loaded machine turns slow answers into timeouts) is failed and dead-lettered, never received: wait
    // for each event to arrive or fail, then for the records to be final (in-flight redeliveries of timed-out answers).
    await until('each of the 40 events at the receiver or failed after its last attempt', async () => {
      if (wanted.every((id) => h.receiver.received.has(id))) return true;
      const d = await deliveryRecords(h.org.orgId, h.sub.id);
      return wanted.every((id) => h.receiver.received.has(id) || d.get(id)?.status === 'failed');
    }, 90_000, { detail: () => ({ ...h.receiver.stats, received: h.receiver.received.size }) });
    await until('every delivery final', async () => {
      const d = await deliveryRecords(h.org.orgId, h.sub.id);
      return d.size === 40 && [...d.values()].every((r) => r.status !== 'pending');
    }, 20_000);

    const r = h.receiver;
    const finalRecords = await deliveryRecords(h.org.orgId, h.sub.id);
    // Received once each (after dedupe), exactly as committed; an event not received is one that failed.
    expect([...r.received.keys()].every((id) => wanted.includes(id))).toBe(true);
    for (const id of wanted.filter((x) => !r.received.has(x))) expect(finalRecords.get(id)?.status, id).toBe('failed');
    expect(r.received.size).toBeGreaterThanOrEqual(38);
    expect(r.badSignatures).toEqual([]);
    for (const e of committed) if (r.received.has(e.eventId)) expect(r.received.get(e.eventId)!.body).toEqual(e);
    expect(r.stats.failed).toBeGreaterThan(0);
    expect(r.stats.timeouts).toBeGreaterThan(0);
    // A timed-out request was processed by the receiver, so its retry is a duplicate the dedupe drops.
    expect(r.stats.duplicates).toBeGreaterThan(0);
    expect([...r.received.values()].some((e) => e.attempts > 1)).toBe(true);
    // Every record succeeded, unless all its attempts failed at the sender (1 first + one per retry-schedule step):
    // at 40 % failure that is ~0.4^7 per event, and the receiver may still hold the event from an attempt that
    // timed out at the sender only. Nothing is left in any other state.
    const maxAttempts = retryScheduleSeconds().length + 1;
    const records = [...(await deliveryRecords(h.org.orgId, h.sub.id)).values()];
    for (const d of records) expect(d.status === 'succeeded' || (d.status === 'failed' && d.attemptCount === maxAttempts), JSON.stringify(d)).toBe(true);
    expect(records.filter((d) => d.status === 'succeeded').length).toBeGreaterThanOrEqual(38);
    expect(CIRCUIT_BREAKER_THRESHOLD).toBe(20);

    const attempts = await listAllAttempts(h.api, h.org.keys.read, h.sub.id);
    // Every POST the receiver saw is listed, and nothing else.
    expect(attempts).toHaveLength(r.stats.requests);
    for (const id of wanted) expect(attempts.filter((a) => a.eventId === id)).toHaveLength(r.attemptsById.get(id)!);
    const failed = attempts.filter((a) => !a.ok);
    expect(failed.length).toBe(r.stats.failed + r.stats.timeouts);
    for (const a of failed) {
      if (a.attempt === maxAttempts) {
        // The last attempt of an event refused every time: failed, no retry.
        expect(a).toMatchObject({ outcome: 'failed', nextRetryAt: null });
      } else {
        expect(a.outcome).toBe('retrying');
        expect(isIso(a.nextRetryAt)).toBe(true);
        expect(Date.parse(a.nextRetryAt)).toBeGreaterThan(Date.parse(a.attemptedAt));
        expect(Date.parse(a.nextRetryAt) - Date.parse(a.attemptedAt)).toBeLessThanOrEqual(2000);
      }
      if (a.error === 'timeout') {
        expect(a.statusCode).toBeNull();
        expect(a.latencyMs).toBeGreaterThanOrEqual(900);
      } else expect(a).toMatchObject({ statusCode: 503, error: 'status 503' });
    }
    expect(failed.filter((a) => a.error === 'timeout')).toHaveLength(r.stats.timeouts);
    const succeeded = attempts.filter((a) => a.ok);
    expect(succeeded.length).toBe(r.stats.ok);
    for (const a of succeeded) expect(a).toMatchObject({ statusCode: 200, error: null, nextRetryAt: null, outcome: 'succeeded' });
    expect(Math.max(...attempts.map((a) => a.attempt))).toBeGreaterThan(1);
    // Attempt numbers of one event run 1, 2, 3, ... in time order.
    for (const id of wanted) {
      const mine = attempts.filter((a) => a.eventId === id).sort((a, b) => a.attemptedAt.localeCompare(b.attemptedAt));
      expect(mine.map((a) => a.attempt)).toEqual(mine.map((_, i) => i + 1));
    }
  }, 150_000);

  it('an endpoint that never recovers: after the last attempt (schedule 1,1 → 3) the delivery is failed and the message is dead-lettered', async () => {
    process.env.WEBHOOK_RETRY_SCHEDULE = '1,1'; // read by the local queue's redrive policy at start and by the worker per attempt
    cleanups.push(async () => void (process.env.WEBHOOK_RETRY_SCHEDULE = SCHEDULE));
    const h = await setup('fail');
    expect(h.rt.sqs.maxReceiveCount).toBe(3);
    await h.maker.commit(1);
    const committed = await outboxEvents(h.org.orgId);
    expect(committed).toHaveLength(2);
    const wanted = new Set(committed.map((e) => e.eventId));

    const dead: DeliveryMessage[] = [];
    await until('both messages in the DLQ', async () => {
      const out = await sqs().send(new ReceiveMessageCommand({ QueueUrl: h.rt.sqs.dlqUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
      dead.push(...(out.Messages ?? []).map((m) => JSON.parse(m.Body!) as DeliveryMessage));
      return dead.length >= wanted.size;
    }, 20_000, { intervalMs: 200 });
    expect(new Set(dead.map((m) => m.eventId))).toEqual(wanted);
    for (const m of dead) expect(m).toMatchObject({ orgId: h.org.orgId, subscriptionId: h.sub.id });

    const records = await deliveryRecords(h.org.orgId, h.sub.id);
    for (const id of wanted) expect(records.get(id)).toEqual({ status: 'failed', attemptCount: 3, nextRetryAt: null });
    expect(h.receiver.received.size).toBe(0);
    for (const id of wanted) expect(h.receiver.attemptsById.get(id)).toBe(3);
    const attempts = await listAllAttempts(h.api, h.org.keys.read, h.sub.id);
    for (const id of wanted) {
      const mine = attempts.filter((a) => a.eventId === id).sort((a, b) => a.attempt - b.attempt);
      expect(mine.map((a) => [a.attempt, a.statusCode, a.outcome])).toEqual([
        [1, 503, 'retrying'],
        [2, 503, 'retrying'],
        [3, 503, 'failed'],
      ]);
      expect(mine[2].nextRetryAt).toBeNull();
    }
    // Not redelivered after dead-lettering.
    const seen = h.receiver.stats.requests;
    await new Promise((r) => setTimeout(r, 1500));
    expect(h.receiver.stats.requests).toBe(seen);
    // The subscription stays active: 6 failures are below the breaker's threshold (20).
    expect((await h.api.ok('GET', `/api/v1/webhooks/${h.sub.id}`, { key: h.org.keys.read })).data).toMatchObject({ isActive: true, consecutiveFailures: 6 });
  }, 45_000);
});

/**
 * Webhook delivery end to end, over the local runtime (the same handlers as in AWS: API → outbox →
 * DynamoDB Streams poller → fan-out → local SQS → delivery worker → HTTP POST) into a verifying receiver:
 *  - done means: every committed event arrives exactly once after dedupe, signed, with the spec's headers,
 *    and `GET /webhooks/{id}/deliveries` lists one successful first attempt per delivery;
 *  - secret rotation: later deliveries (retries included) are signed with the new secret only;
 *  - paused subscriptions (circuit breaker or `isActive: false`) receive nothing until re-enabled.
 * Retries are compressed with `WEBHOOK_RETRY_SCHEDULE=1,1,1,1,1,1` (7 attempts, ~1 s apart).
 */
import { describe, expect, it } from 'vitest';
import { recordWebhookFailure } from '#db/webhooks';
import { verifyWebhookSignature } from '#events/signing';
import {
  deliveryRecords,
  listAllAttempts,
  outboxEvents,
  startWebhookReceiver,
  subscribe,
  until,
  type Behaviour,
  type WebhookReceiver,
} from '../support/webhook-receiver.ts';
import { setupSubscribedDeal, useCleanups, type WebhookHarness } from '../support/runtime-harness.ts';

process.env.WEBHOOK_RETRY_SCHEDULE = '1,1,1,1,1,1';

const cleanups = useCleanups();

type Harness = WebhookHarness;
const setup = (behaviour: Behaviour = 'ok') => setupSubscribedDeal(cleanups, behaviour);

/** An extra receiver subscribed to `*`: it proves fan-out ran for events another subscription must not get. */
async function control(h: Harness): Promise<WebhookReceiver> {
  const receiver = await startWebhookReceiver();
  cleanups.push(() => receiver.close());
  receiver.setSecret((await subscribe(h.api, h.org.keys.actions, `${receiver.url}/control`, { name: 'control' })).secret);
  return receiver;
}

const ids = async (orgId: string) => new Set((await outboxEvents(orgId)).map((e) => e.eventId));
const has = (r: WebhookReceiver, wanted: Iterable<string>) => [...wanted].every((id) => r.received.has(id));
const isIso = (s: unknown) => typeof s === 'string' && new Date(s).toISOString() === s;

describe('webhook delivery, end to end', () => {
  it('delivers every committed event exactly once, signed, with matching headers; deliveries list one 200 first attempt each', async () => {
    const h = await setup();
    await h.maker.commit(8); // key dates, tasks created and completed, status changes
    await h.api.ok('PATCH', `/api/v1/transactions/${h.maker.dealId}/status`, { key: h.org.keys.actions, body: { status: 'Under Contract' } }); // + cascade tasks

    const committed = await outboxEvents(h.org.orgId);
    expect(committed.length).toBe(1 + 8 + 1 + 3);
    expect(new Set(committed.map((e) => e.eventType))).toEqual(new Set(['transaction.created', 'key_date.updated', 'task.created', 'task.completed', 'transaction.status_changed']));
    await until('every committed event at the receiver', () => has(h.receiver, committed.map((e) => e.eventId)), 15_000, { detail: () => h.receiver.stats });

    expect(h.receiver.received.size).toBe(committed.length);
    expect(h.receiver.badSignatures).toEqual([]);
    expect(h.receiver.stats.duplicates).toBe(0);
    for (const envelope of committed) {
      const got = h.receiver.received.get(envelope.eventId)!;
      expect(got.attempts, envelope.eventType).toBe(1);
      expect(got.body).toEqual(envelope);
      expect(got.body.organizationId).toBe(h.org.orgId);
      expect(got.path).toBe('/hook');
      expect(got.eventType).toBe(envelope.eventType);
      expect(got.headers['x-webhook-event-id']).toBe(envelope.eventId);
      expect(got.headers['content-type']).toBe('application/json');
      expect(isIso(got.headers['x-webhook-timestamp'])).toBe(true);
      expect(Date.parse(got.headers['x-webhook-timestamp'] as string)).toBeGreaterThanOrEqual(Date.parse(envelope.timestamp));
      expect(verifyWebhookSignature(h.sub.secret, got.raw, got.headers['x-webhook-signature'] as string)).toBe(true);
      expect(got.headers['x-webhook-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    }

    await until('every delivery recorded as succeeded', async () => [...(await deliveryRecords(h.org.orgId, h.sub.id)).values()].filter((d) => d.status === 'succeeded').length === committed.length, 5_000);
    const attempts = await listAllAttempts(h.api, h.org.keys.read, h.sub.id);
    expect(attempts).toHaveLength(committed.length);
    expect(new Set(attempts.map((a) => a.eventId))).toEqual(new Set(committed.map((e) => e.eventId)));
    for (const a of attempts) {
      expect(a).toMatchObject({ subscriptionId: h.sub.id, attempt: 1, ok: true, statusCode: 200, error: null, nextRetryAt: null, outcome: 'succeeded' });
      expect(a.eventType).toBe(committed.find((e) => e.eventId === a.eventId)!.eventType);
      expect(a.latencyMs).toEqual(expect.any(Number));
      expect(a.latencyMs).toBeGreaterThanOrEqual(0);
      expect(a.latencyMs).toBeLessThan(1000);
      expect(isIso(a.attemptedAt)).toBe(true);
    }
  });

  it('after regenerate-secret, deliveries (retries included) verify only with the new secret', async () => {
    const h = await setup();
    await h.maker.commit(2);
    const before = await ids(h.org.orgId);
    await until('the events before rotation', () => has(h.receiver, before), 10_000);
    const oldSecret = h.sub.secret;

    const rotated = (await h.api.ok('POST', `/api/v1/webhooks/${h.sub.id}/regenerate-secret`, { key: h.org.keys.actions })).data;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(oldSecret);
    expect((await h.api.ok('GET', `/api/v1/webhooks/${h.sub.id}`, { key: h.org.keys.read })).data.secretPrefix).toBe(`${rotated.secret.slice(0, 10)}…`);

    // A receiver still on the old secret refuses the next delivery (401, a failed attempt that will be retried) ...
    h.receiver.setSecret(oldSecret);
    await h.maker.commit(1);
    const [first] = [...(await ids(h.org.orgId))].filter((id) => !before.has(id));
    await until('a rejected signature', () => h.receiver.badSignatures.some((b) => b.eventId === first), 10_000);
    expect(h.receiver.received.has(first)).toBe(false);
    // ... then switches to the new secret: the retry, signed with the new secret, is accepted.
    h.receiver.setSecret(rotated.secret);
    await h.maker.commit(2);
    const after = [...(await ids(h.org.orgId))].filter((id) => !before.has(id));
    expect(after).toHaveLength(3);
    await until('the events after rotation', () => has(h.receiver, after), 10_000);
    for (const id of after) {
      const got = h.receiver.received.get(id)!;
      expect(got.secret).toBe(rotated.secret);
      expect(verifyWebhookSignature(rotated.secret, got.raw, got.headers['x-webhook-signature'] as string)).toBe(true);
      expect(verifyWebhookSignature(oldSecret, got.raw, got.headers['x-webhook-signature'] as string)).toBe(false);
    }
    for (const id of before) expect(h.receiver.received.get(id)!.secret).toBe(oldSecret);

    const attempts = (await listAllAttempts(h.api, h.org.keys.read, h.sub.id)).filter((a) => a.eventId === first);
    expect(attempts.find((a) => a.attempt === 1)).toMatchObject({ ok: false, statusCode: 401, error: 'status 401', outcome: 'retrying' });
    expect(isIso(attempts.find((a) => a.attempt === 1).nextRetryAt)).toBe(true);
    expect(attempts.find((a) => a.ok)).toMatchObject({ statusCode: 200, outcome: 'succeeded' });
    expect(attempts.find((a) => a.ok).attempt).toBeGreaterThan(1);
  });

  it('a subscription paused by the circuit breaker gets nothing (queued retries are dropped) until PUT isActive true', async () => {
    const h = await setup('fail');
    const other = await control(h);
    await h.maker.commit(1);
    const first = await ids(h.org.orgId); // transaction.created + 1
    await until('a failed first attempt for each event', async () => {
      const d = await deliveryRecords(h.org.orgId, h.sub.id);
      return [...first].every((id) => d.get(id)?.status === 'pending' && (h.receiver.attemptsById.get(id) ?? 0) >= 1);
    }, 10_000);

    // Trip the breaker (threshold 1 here; the worker uses WEBHOOK_BREAKER_THRESHOLD).
    expect(await recordWebhookFailure(h.org.orgId, h.sub.id, new Date(), 1)).toBe(true);
    const paused = (await h.api.ok('GET', `/api/v1/webhooks/${h.sub.id}`, { key: h.org.keys.read })).data;
    expect(paused).toMatchObject({ isActive: false, pausedReason: 'circuit_breaker' });
    await until('the queued retries dropped', async () => {
      const d = await deliveryRecords(h.org.orgId, h.sub.id);
      return [...first].every((id) => d.get(id)?.status === 'dropped');
    }, 10_000);
    h.receiver.behaviour = 'ok';
    const requestsWhenPaused = h.receiver.stats.requests;

    await h.maker.commit(3);
    const whilePaused = [...(await ids(h.org.orgId))].filter((id) => !first.has(id));
    await until('fan-out of the events committed while paused (control subscription)', () => has(other, whilePaused), 10_000);
    await new Promise((r) => setTimeout(r, 1500)); // grace for a (wrong) delivery to the paused one
    expect(h.receiver.stats.requests).toBe(requestsWhenPaused);
    expect(h.receiver.received.size).toBe(0);
    const records = await deliveryRecords(h.org.orgId, h.sub.id);
    for (const id of whilePaused) expect(records.has(id)).toBe(false); // fan-out skipped the paused subscription
    const dropped = (await listAllAttempts(h.api, h.org.keys.read, h.sub.id)).filter((a) => a.outcome === 'dropped');
    expect(new Set(dropped.map((a) => a.eventId))).toEqual(first);
    for (const a of dropped) expect(a).toMatchObject({ ok: false, statusCode: null, latencyMs: null, error: 'subscription paused by the circuit breaker', nextRetryAt: null });

    const put = (await h.api.ok('PUT', `/api/v1/webhooks/${h.sub.id}`, { key: h.org.keys.actions, body: { name: 'e2e receiver', url: h.sub.url, events: ['*'], isActive: true } })).data;
    expect(put).toMatchObject({ isActive: true, consecutiveFailures: 0, pausedReason: null, pausedAt: null });
    const seen = new Set(await ids(h.org.orgId));
    await h.maker.commit(2);
    const later = [...(await ids(h.org.orgId))].filter((id) => !seen.has(id));
    await until('events after re-enabling', () => has(h.receiver, later), 10_000);
    expect(h.receiver.received.size).toBe(2); // nothing from before: dropped and skipped deliveries stay undelivered
    expect(h.receiver.badSignatures).toEqual([]);
  });

  it('PUT isActive false stops deliveries; PUT isActive true resumes them', async () => {
    const h = await setup();
    const other = await control(h);
    const initial = await ids(h.org.orgId);
    await until('the first event', () => has(h.receiver, initial), 10_000);
    const body = { name: 'e2e receiver', url: h.sub.url, events: ['*'] };
    expect((await h.api.ok('PUT', `/api/v1/webhooks/${h.sub.id}`, { key: h.org.keys.actions, body: { ...body, isActive: false } })).data.isActive).toBe(false);

    await h.maker.commit(3);
    const whileInactive = [...(await ids(h.org.orgId))].filter((id) => !initial.has(id));
    await until('fan-out of the events committed while inactive', () => has(other, whileInactive), 10_000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(h.receiver.received.size).toBe(1);
    expect(h.receiver.stats.requests).toBe(1);

    await h.api.ok('PUT', `/api/v1/webhooks/${h.sub.id}`, { key: h.org.keys.actions, body: { ...body, isActive: true } });
    const seen = await ids(h.org.orgId);
    await h.maker.commit(2);
    const later = [...(await ids(h.org.orgId))].filter((id) => !seen.has(id));
    await until('events after re-activation', () => has(h.receiver, later), 10_000);
    expect(h.receiver.received.size).toBe(3);
    for (const id of whileInactive) expect(h.receiver.received.has(id)).toBe(false);
  });
});

/**
 * Webhook redelivery end to end (designed here; shared/use-cases/redeliver-webhook.ts), on the full local runtime:
 * deliveries to an endpoint that fails end `failed`; once it recovers, `POST .../deliveries/{deliveryId}/redeliver`
 * re-sends one (same event id and body, signed with the current secret, attempt 1 again) and
 * `POST /webhooks/{id}/redeliver` the rest of a time range, bounded with a cursor and idempotent with
 * `Idempotency-Key`. Redeliveries are listed by `GET /webhooks/{id}/deliveries` linking `redeliveryOf`; a paused
 * subscription and an internal event are refused.
 */
import { describe, expect, it } from 'vitest';
import { claimDelivery, recordAttempt } from '#db/webhook-deliveries';
import { deliveryRecords, listAllAttempts, outboxEvents, until } from '../support/webhook-receiver.ts';
import { setupSubscribedDeal, useCleanups } from '../support/runtime-harness.ts';

process.env.WEBHOOK_RETRY_SCHEDULE = '1';

const cleanups = useCleanups();

/** A POST with optional `Idempotency-Key`. */
async function post(baseUrl: string, path: string, key: string, body?: unknown, idempotencyKey?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
  const res = await fetch(baseUrl + path, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, text };
}

describe('webhook redelivery', () => {
  it('re-sends one failed delivery, then the rest in bulk (bounded, cursor, Idempotency-Key), listed with redeliveryOf', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const h = await setupSubscribedDeal(cleanups, 'fail');
    await h.maker.commit(2); // + transaction.created = 3 events
    const events = await outboxEvents(h.org.orgId);
    expect(events).toHaveLength(3);
    await until('every delivery to end failed', async () => {
      const d = await deliveryRecords(h.org.orgId, h.sub.id);
      return d.size === 3 && [...d.values()].every((r) => r.status === 'failed');
    }, 30_000, { intervalMs: 200 });
    expect(h.receiver.received.size).toBe(0);
    // Bulk redelivery goes oldest final attempt first (its sort key, `ATT#<attemptedAt>#<deliveryId>#…`), which need
    // not follow the events' order (the queue hands retries back in any order): the one redelivered alone is that one.
    const finalAttempts = await until('the final attempts to be listed', async () => {
      const failed = (await listAllAttempts(h.api, h.org.keys.read, h.sub.id)).filter((a) => a.outcome === 'failed');
      return failed.length === events.length ? failed : undefined;
    }, 10_000);
    const finalKey = (eventId: string) => finalAttempts.filter((a) => a.eventId === eventId).map((a) => `${a.attemptedAt}#${a.deliveryId}`)[0];
    const [first, ...rest] = [...events].sort((a, b) => finalKey(a.eventId).localeCompare(finalKey(b.eventId)));
    h.receiver.behaviour = 'ok';

    // One delivery: a new delivery of the same event.
    const one = await post(h.rt.baseUrl, `/api/v1/webhooks/${h.sub.id}/deliveries/${first.eventId}/redeliver`, h.org.keys.actions);
    expect(one.status, one.text).toBe(200);
    expect(one.body.data).toMatchObject({ redeliveryOf: first.eventId, eventId: first.eventId, eventType: first.eventType });
    expect(one.body.data.deliveryId).not.toBe(first.eventId);
    await until('the redelivery to arrive', () => h.receiver.received.has(first.eventId), 20_000);
    const got = h.receiver.received.get(first.eventId)!;
    expect(JSON.parse(got.raw.toString('utf8'))).toEqual(first);
    expect(got.headers['x-webhook-event-id']).toBe(first.eventId);
    expect(h.receiver.badSignatures).toEqual([]);
    const listed = await until('its attempt to be listed', async () =>
      (await listAllAttempts(h.api, h.org.keys.read, h.sub.id)).find((a) => a.deliveryId === one.body.data.deliveryId && a.outcome === 'succeeded'), 20_000);
    expect(listed).toMatchObject({ redeliveryOf: first.eventId, eventId: first.eventId, attempt: 1, ok: true });
    const originals = (await listAllAttempts(h.api, h.org.keys.read, h.sub.id)).filter((a) => a.deliveryId === first.eventId);
    expect(originals.map((a) => a.outcome).sort()).toEqual(['failed', 'retrying']);
    expect(originals.every((a) => a.redeliveryOf === null)).toBe(true);

    // Bulk, one match per call: the oldest failed delivery was redelivered already, so it is skipped.
    const path = `/api/v1/webhooks/${h.sub.id}/redeliver`;
    const page1 = await post(h.rt.baseUrl, path, h.org.keys.actions, { since, limit: 1 });
    expect(page1.status, page1.text).toBe(200);
    expect(page1.body.data).toMatchObject({ count: 0, redelivered: [], skipped: 1, truncated: true });
    expect(typeof page1.body.data.cursor).toBe('string');

    const body = { since, cursor: page1.body.data.cursor };
    const page2 = await post(h.rt.baseUrl, path, h.org.keys.actions, body, 'bulk-1');
    expect(page2.status, page2.text).toBe(200);
    expect(page2.body.data).toMatchObject({ count: 2, skipped: 0, truncated: false, cursor: null });
    expect(page2.body.data.redelivered.map((r: { eventId: string }) => r.eventId).sort()).toEqual(rest.map((e) => e.eventId).sort());
    for (const r of page2.body.data.redelivered) expect(r.redeliveryOf).toBe(r.eventId);

    // The same key replays the answer and re-sends nothing; a new call finds nothing left to re-send.
    const replay = await post(h.rt.baseUrl, path, h.org.keys.actions, body, 'bulk-1');
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(page2.body);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    const again = await post(h.rt.baseUrl, path, h.org.keys.actions, { since });
    expect(again.body.data).toMatchObject({ count: 0, skipped: 3, truncated: false });

    await until('every event to arrive', () => events.every((e) => h.receiver.received.has(e.eventId)), 20_000);
    await new Promise((r) => setTimeout(r, 500));
    for (const e of events) expect(h.receiver.received.get(e.eventId)!.attempts).toBeGreaterThanOrEqual(1);
    expect(h.receiver.stats.duplicates).toBe(0);
    const redeliveries = (await listAllAttempts(h.api, h.org.keys.read, h.sub.id)).filter((a) => a.redeliveryOf !== null);
    expect(redeliveries).toHaveLength(3);
    expect(redeliveries.every((a) => a.attempt === 1 && a.outcome === 'succeeded')).toBe(true);
  }, 120_000);

  it('refuses while the subscription is paused, for an internal event, an unknown delivery and without the actions scope', async () => {
    const h = await setupSubscribedDeal(cleanups, 'ok');
    const since = new Date(Date.now() - 60_000).toISOString();
    await until('transaction.created to be delivered', async () => [...(await deliveryRecords(h.org.orgId, h.sub.id)).values()].some((d) => d.status === 'succeeded'), 20_000);
    const [created] = await outboxEvents(h.org.orgId);

    // An internal event's delivery (none is ever made; written here to prove the guard).
    const internal = { orgId: h.org.orgId, subscriptionId: h.sub.id, eventId: '7f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b', eventType: 'task.assigned', payload: '{}' };
    await claimDelivery(internal, new Date());
    await recordAttempt(h.org.orgId, { subscriptionId: h.sub.id, eventId: internal.eventId, eventType: internal.eventType, attempt: 1, attemptedAt: new Date().toISOString(), ok: false, statusCode: 503, latencyMs: 3, error: 'HTTP 503', nextRetryAt: null, outcome: 'failed' }, new Date());
    const refused = await post(h.rt.baseUrl, `/api/v1/webhooks/${h.sub.id}/deliveries/${internal.eventId}/redeliver`, h.org.keys.actions);
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error.fields.deliveryId).toMatch(/internal event/);
    const bulk = await post(h.rt.baseUrl, `/api/v1/webhooks/${h.sub.id}/redeliver`, h.org.keys.actions, { since });
    expect(bulk.body.data).toMatchObject({ count: 0, skipped: 1 });

    expect((await post(h.rt.baseUrl, `/api/v1/webhooks/${h.sub.id}/deliveries/${created.eventId}/redeliver`, h.org.keys.read)).status).toBe(403);
    const unknown = await post(h.rt.baseUrl, `/api/v1/webhooks/${h.sub.id}/deliveries/0b6c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d/redeliver`, h.org.keys.actions);
    expect(unknown.status).toBe(404);

    // Paused (the breaker pauses the same way): refused, nothing queued behind it.
    await h.api.ok('PUT', `/api/v1/webhooks/${h.sub.id}`, { key: h.org.keys.actions, body: { name: 'e2e receiver', url: h.sub.url, events: ['*'], isActive: false } });
    const paused = await post(h.rt.baseUrl, `/api/v1/webhooks/${h.sub.id}/deliveries/${created.eventId}/redeliver`, h.org.keys.actions);
    expect(paused.status, paused.text).toBe(422);
    expect(paused.body.error.fields.id).toMatch(/paused/);
    const pausedBulk = await post(h.rt.baseUrl, `/api/v1/webhooks/${h.sub.id}/redeliver`, h.org.keys.actions, { since, status: 'failed' }, 'paused-1');
    expect(pausedBulk.status).toBe(422);
    expect([...(await deliveryRecords(h.org.orgId, h.sub.id)).values()].filter((d) => d.status === 'pending')).toEqual([]);
    const bad = await post(h.rt.baseUrl, `/api/v1/webhooks/${h.sub.id}/redeliver`, h.org.keys.actions, { since, until: '2020-01-01T00:00:00Z' });
    expect(bad.status).toBe(422);
  }, 90_000);
});

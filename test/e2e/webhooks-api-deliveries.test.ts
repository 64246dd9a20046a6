/**
 * Webhooks over HTTP, the delivery side: `POST /webhooks/{id}/test` commits a `webhook.test` outbox event,
 * `GET /webhooks/{id}/deliveries` lists attempts newest first with paging, and `PUT` with `isActive: true`
 * re-enables a subscription paused by the circuit breaker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { recordWebhookFailure } from '#db/webhooks';
import { recordAttempt } from '#db/webhook-deliveries';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';

const savedLocal = process.env.LOCAL_MODE;
process.env.LOCAL_MODE = 'true';

let t: TestApi;
let org: TestOrg;
beforeAll(async () => {
  t = await startTestApi();
  org = await t.newOrg('Delivery Realty');
});
afterAll(async () => {
  await t.close();
  if (savedLocal === undefined) delete process.env.LOCAL_MODE;
  else process.env.LOCAL_MODE = savedLocal;
});

async function create(over: Record<string, unknown> = {}) {
  const r = await t.call('POST', '/api/v1/webhooks', { key: org.keys.actions, body: { name: 'CRM', url: 'http://127.0.0.1:9/hook', events: ['*'], ...over } });
  expect(r.status, r.text).toBe(200);
  return r.body.data as { id: string; secret: string };
}

async function outboxEvents(orgId: string): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const out = await db().send(new ScanCommand({ TableName: tableName(), FilterExpression: 'entity = :e AND orgId = :o', ExpressionAttributeValues: { ':e': 'OutboxEvent', ':o': orgId }, ExclusiveStartKey, ConsistentRead: true }));
    items.push(...(out.Items ?? []));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

describe('POST /webhooks/{id}/test', () => {
  it('returns the event id and commits a webhook.test outbox event naming the subscription', async () => {
    const w = await create({ events: ['contact.created'] });
    const r = await t.call('POST', `/api/v1/webhooks/${w.id}/test`, { key: org.keys.actions });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ subscriptionId: w.id, eventType: 'webhook.test', queued: true });
    expect(r.body.data.eventId).toMatch(/^[0-9a-f-]{36}$/);

    const events = (await outboxEvents(org.orgId)).filter((e) => e.envelope.eventId === r.body.data.eventId);
    expect(events).toHaveLength(1);
    expect(events[0].envelope).toMatchObject({ eventType: 'webhook.test', organizationId: org.orgId, data: { subscriptionId: w.id } });
    expect(new Date(events[0].envelope.timestamp).toISOString()).toBe(events[0].envelope.timestamp);
  });

  it('needs the actions scope and writes nothing without it', async () => {
    const w = await create();
    const before = (await outboxEvents(org.orgId)).length;
    const r = await t.call('POST', `/api/v1/webhooks/${w.id}/test`, { key: org.keys.read });
    expect(r.status).toBe(403);
    expect(await outboxEvents(org.orgId)).toHaveLength(before);
  });

  it('is 404 for a subscription that does not exist', async () => {
    const r = await t.call('POST', '/api/v1/webhooks/00000000-0000-4000-8000-000000000000/test', { key: org.keys.actions });
    expect(r.status).toBe(404);
  });
});

describe('GET /webhooks/{id}/deliveries', () => {
  it('is empty for a fresh subscription, with the default paging', async () => {
    const w = await create();
    const r = await t.call('GET', `/api/v1/webhooks/${w.id}/deliveries`, { key: org.keys.read });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [], limit: 25, offset: 0 });
  });

  it.each(['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'limit=1.5'])('refuses %s with 422', async (query) => {
    const w = await create();
    const r = await t.call('GET', `/api/v1/webhooks/${w.id}/deliveries?${query}`, { key: org.keys.read });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.error.fields)).toContain(query.split('=')[0]);
  });

  it('lists attempts newest first with status code, latency, error and next retry; limit and offset page', async () => {
    const w = await create();
    const eventId = '11111111-1111-4111-8111-111111111111';
    const times = ['2030-01-01T10:00:00.000Z', '2030-01-01T10:01:00.000Z', '2030-01-01T10:06:00.000Z'];
    for (const [i, attemptedAt] of times.entries()) {
      const last = i === times.length - 1;
      await recordAttempt(org.orgId, {
        subscriptionId: w.id, eventId, eventType: 'task.created', attempt: i + 1, attemptedAt, ok: last, statusCode: last ? 200 : 503, latencyMs: 40 + i,
        error: last ? null : 'status 503', nextRetryAt: last ? null : times[i + 1], outcome: last ? 'succeeded' : 'retrying',
      }, new Date(attemptedAt));
    }

    const page1 = await t.call('GET', `/api/v1/webhooks/${w.id}/deliveries?limit=2`, { key: org.keys.read });
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ limit: 2, offset: 0 });
    expect(page1.body.data.map((a: { attempt: number }) => a.attempt)).toEqual([3, 2]);
    expect(page1.body.data[0]).toMatchObject({ eventId, ok: true, statusCode: 200, latencyMs: 42, error: null, nextRetryAt: null, outcome: 'succeeded' });
    expect(page1.body.data[1]).toMatchObject({ ok: false, statusCode: 503, error: 'status 503', nextRetryAt: times[2], outcome: 'retrying' });

    const page2 = await t.call('GET', `/api/v1/webhooks/${w.id}/deliveries?limit=2&offset=2`, { key: org.keys.read });
    expect(page2.body).toMatchObject({ limit: 2, offset: 2 });
    expect(page2.body.data.map((a: { attempt: number }) => a.attempt)).toEqual([1]);
  });
});

describe('re-enabling after the circuit breaker', () => {
  it('PUT with isActive true resets the breaker; the subscription is listed again', async () => {
    const w = await create({ name: 'flaky' });
    for (let i = 0; i < 2; i++) await recordWebhookFailure(org.orgId, w.id, new Date(), 2);
    const paused = await t.call('GET', `/api/v1/webhooks/${w.id}`, { key: org.keys.read });
    expect(paused.body.data).toMatchObject({ isActive: false, pausedReason: 'circuit_breaker', consecutiveFailures: 2 });
    expect(paused.body.data.pausedAt).toEqual(expect.any(String));
    const listed = await t.call('GET', '/api/v1/webhooks', { key: org.keys.read });
    expect(listed.body.data.map((s: { id: string }) => s.id)).not.toContain(w.id);

    const put = await t.call('PUT', `/api/v1/webhooks/${w.id}`, { key: org.keys.actions, body: { name: 'flaky', url: 'http://127.0.0.1:9/hook', events: ['*'], isActive: true } });

    expect(put.status, put.text).toBe(200);
    const reset = { isActive: true, consecutiveFailures: 0, pausedAt: null, pausedReason: null };
    expect(put.body.data).toMatchObject(reset);
    expect((await t.call('GET', `/api/v1/webhooks/${w.id}`, { key: org.keys.read })).body.data).toMatchObject(reset);
    const relisted = await t.call('GET', '/api/v1/webhooks', { key: org.keys.read });
    expect(relisted.body.data.map((s: { id: string }) => s.id)).toContain(w.id);
  });
});

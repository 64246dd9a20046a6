/**
 * Spec "Limits": per key per minute, fixed window — 60 writes (POST/PUT/PATCH/DELETE) and 300 reads
 * (GET/HEAD), separate buckets; exceeding one is 429 `rate_limited` with `Retry-After: 60`.
 * The request clock is pinned with `setClock` (the local server runs in this process).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, RATE_LIMITS } from '#db/api-keys';
import { type Transaction } from '#db/transactions';
import { createTransaction } from '#use-cases/create-transaction';
import { setClock } from '#ports/clock';
import { startTestApi, type ApiResponse, type TestApi, type TestOrg } from '../support/http-client.ts';

let t: TestApi;
let org: TestOrg;
let deal: Transaction;
/** A minute well away from wall-clock time, so only the pinned clock decides the window. */
const BASE_MINUTE = Math.floor(Date.now() / 60_000) + 1_000;
const atMinute = (m: number, offsetMs = 0) => setClock(() => m * 60_000 + offsetMs);

beforeAll(async () => {
  t = await startTestApi();
  org = await t.newOrg('Rate Limit Realty');
  deal = await createTransaction(
    { orgId: org.orgId, userId: org.ownerUserId },
    { propertyAddress: { street: '60 Limit Ave', city: 'Austin', state: 'TX', zip: '78702' }, transactionType: 'Sale', side: 'Seller', status: 'Prospect' },
  );
});
afterEach(() => setClock());
afterAll(async () => {
  setClock();
  await t.close();
});

const freshKey = async (name: string) =>
  (await createApiKey({ orgId: org.orgId, userId: org.ownerUserId, name, scopes: ['read', 'draft', 'actions'] })).value;

function expectRateLimited(r: ApiResponse) {
  expect(r.status).toBe(429);
  expect(r.headers.get('retry-after')).toBe('60');
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Object.keys(r.body)).toEqual(['error']);
  expect(Object.keys(r.body.error).sort()).toEqual(['code', 'message']);
  expect(r.body.error.code).toBe('rate_limited');
  expect(r.body.error.message.length).toBeGreaterThan(0);
}

const patchNotes = (key: string, notes: string) => t.call('PATCH', `/api/v1/transactions/${deal.id}/notes`, { key, body: { notes } });

const deleteUnknownTask = (key: string) => () => t.call('POST', '/api/v1/tasks/delete', { key, body: { taskIds: [crypto.randomUUID()] } });

/** `n` calls in concurrent batches of 20. */
async function inBatches(n: number, fn: (i: number) => Promise<ApiResponse>): Promise<ApiResponse[]> {
  const out: ApiResponse[] = [];
  for (let i = 0; i < n; i += 20) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(20, n - i) }, (_, j) => fn(i + j)))));
  }
  return out;
}

describe('write bucket (60 per key per minute)', () => {
  it('the limits are the spec\'s', () => {
    expect(RATE_LIMITS).toEqual({ read: 300, write: 60 });
  });

  it('60 writes succeed, the 61st is 429 with Retry-After: 60; reads and other keys are unaffected; the next minute resets', async () => {
    const key = await freshKey('writer');
    atMinute(BASE_MINUTE);

    // 1 notes update to start the window, 58 conflict-free deletes of unknown tasks in concurrent batches,
    // and a last notes update: 60 writes.
    const first = await patchNotes(key, 'write 1');
    expect(first.status).toBe(200);
    const middle = await inBatches(58, deleteUnknownTask(key));
    expect(middle.map((r) => r.status)).toEqual(Array(58).fill(200));
    atMinute(BASE_MINUTE, 30_000);
    const sixtieth = await patchNotes(key, 'write 60');
    expect(sixtieth.status).toBe(200);

    // Late in the same window: still limited.
    atMinute(BASE_MINUTE, 59_000);
    const over = await patchNotes(key, 'write 61');
    expectRateLimited(over);
    // The rejected write did not happen.
    const read = await t.call('GET', `/api/v1/transactions/${deal.id}`, { key });
    expect(read.status).toBe(200);
    expect(read.body.data.notes).toBe('write 60');

    // The bucket is the key's, not the operation's: another write operation is limited too.
    expectRateLimited(await t.call('POST', `/api/v1/transactions/${deal.id}/tasks`, { key, body: { title: 'over the limit' } }));
    expectRateLimited(await t.call('POST', '/api/v1/tasks/delete', { key, body: { taskIds: [crypto.randomUUID()] } }));

    // Reads use a separate bucket.
    const health = await t.call('GET', '/api/v1/health', { key });
    expect(health.status).toBe(200);

    // Another key of the same organization has its own buckets.
    const other = await patchNotes(org.keys.draft, 'other key');
    expect(other.status).toBe(200);
    expect(other.body.data.notes).toBe('other key');

    // Next window: writes succeed again.
    atMinute(BASE_MINUTE + 1);
    const again = await patchNotes(key, 'next minute');
    expect(again.status).toBe(200);
    expect(again.body.data.notes).toBe('next minute');
  });

  it('a 429 is decided with authentication, before body validation and the resource lookup', async () => {
    const key = await freshKey('writer-2');
    atMinute(BASE_MINUTE + 10);
    expect((await inBatches(60, deleteUnknownTask(key))).map((r) => r.status)).toEqual(Array(60).fill(200));
    expectRateLimited(await t.call('PATCH', `/api/v1/transactions/${deal.id}/notes`, { key, body: '{not json' }));
    expectRateLimited(await t.call('PATCH', `/api/v1/transactions/${crypto.randomUUID()}/notes`, { key, body: { notes: 'x' } }));
  });

  it('failed writes (4xx) count against the bucket too', async () => {
    const key = await freshKey('writer-3');
    atMinute(BASE_MINUTE + 20);
    const results = await inBatches(60, () => t.call('PATCH', `/api/v1/transactions/${crypto.randomUUID()}/notes`, { key, body: { notes: 'x' } }));
    expect(results.map((r) => r.status)).toEqual(Array(60).fill(404));
    expectRateLimited(await patchNotes(key, 'after 60 failures'));
  });
});

describe('read bucket (300 per key per minute)', () => {
  it('300 GETs succeed, the 301st is 429; writes with the same key still work; the next minute resets', async () => {
    const key = await freshKey('reader');
    atMinute(BASE_MINUTE + 30);
    // One request first so the window is started before the concurrent batches.
    const first = await t.call('GET', '/api/v1/health', { key });
    expect(first.status).toBe(200);
    const rest = await inBatches(299, (i) => t.call('GET', i % 2 ? '/api/v1/health' : '/api/v1/transactions', { key }));
    const statuses = rest.map((r) => r.status);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(statuses).toHaveLength(299);

    atMinute(BASE_MINUTE + 30, 59_999);
    const over = await t.call('GET', '/api/v1/health', { key });
    expectRateLimited(over);
    expectRateLimited(await t.call('GET', '/api/v1/catalog', { key }));

    // Writes have their own bucket.
    const write = await patchNotes(key, 'write while reads are exhausted');
    expect(write.status).toBe(200);

    // Another key is unaffected.
    expect((await t.call('GET', '/api/v1/health', { key: org.keys.read })).status).toBe(200);

    atMinute(BASE_MINUTE + 31);
    expect((await t.call('GET', '/api/v1/health', { key })).status).toBe(200);
  }, 120_000); // 300+ requests: a loaded 2-core machine needs more than the default 30 s

  it('concurrent requests at the window\'s start never over-admit: exactly 300 of 320 pass', async () => {
    const key = await freshKey('reader-burst');
    atMinute(BASE_MINUTE + 40);
    const results = await inBatches(320, () => t.call('GET', '/api/v1/health', { key }));
    const ok = results.filter((r) => r.status === 200).length;
    const limited = results.filter((r) => r.status === 429);
    expect(ok).toBe(300);
    expect(limited).toHaveLength(20);
    for (const r of limited) expectRateLimited(r);
  }, 120_000); // 300+ requests: a loaded 2-core machine needs more than the default 30 s
});

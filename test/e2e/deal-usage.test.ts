/** GET /usage: the calling key's call volume, top operations and error rate; per-key separation. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createApiKey } from '#db/api-keys';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';
import { createDeal } from './deal-fixtures.ts';

let t: TestApi;
let org: TestOrg;
beforeAll(async () => {
  t = await startTestApi();
  org = await t.newOrg('Usage Realty');
});
afterAll(() => t.close());

const newKey = async (name: string) => createApiKey({ orgId: org.orgId, userId: org.ownerUserId, name, scopes: ['read', 'draft', 'actions'] });
const usage = (key: string, query = '') => t.call('GET', `/api/v1/usage${query}`, { key });

describe('GET /usage', () => {
  it('counts the calls of the key, its top operations and its error rate', async () => {
    const { keyId, value: key } = await newKey('usage-a');
    const deal = await createDeal(org, '1 Usage St');
    for (let i = 0; i < 3; i++) expect((await t.call('GET', '/api/v1/health', { key })).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await t.call('GET', `/api/v1/transactions/${deal.id}`, { key })).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await t.call('GET', `/api/v1/transactions/${randomUUID()}`, { key })).status).toBe(404);
    expect((await t.call('PATCH', `/api/v1/transactions/${deal.id}/notes`, { key, body: { notes: 'n' } })).status).toBe(200);
    const N = 8;

    const r = await usage(key);
    expect(r.status).toBe(200);
    expect(r.body.keyId).toBe(keyId);
    const u = r.body.data;
    expect(u.days).toBe(30);
    expect(u.totalCalls).toBeGreaterThanOrEqual(N);
    expect(u.totalCalls).toBe(N + 1); // the usage call itself counts
    expect(u.errorCount).toBe(2);
    expect(u.errorRate).toBeGreaterThan(0);
    expect(u.errorRate).toBe(Math.round((2 / (N + 1)) * 10_000) / 10_000);
    const ops = Object.fromEntries(u.topOperations.map((o: any) => [o.operation, o.calls]));
    expect(ops).toEqual({ getTransaction: 4, getHealth: 3, updateTransactionNotes: 1, getUsage: 1 });
    expect(u.topOperations[0]).toEqual({ operation: 'getTransaction', calls: 4 });
    expect(u.daily.reduce((s: number, d: any) => s + d.calls, 0)).toBe(u.totalCalls);
    expect(u.daily.at(-1).date).toBe(new Date().toISOString().slice(0, 10));
  });

  it("keeps each key's usage separate", async () => {
    const a = (await newKey('usage-b')).value;
    const b = (await newKey('usage-c')).value;
    for (let i = 0; i < 4; i++) await t.call('GET', '/api/v1/transaction-statuses', { key: a });
    await t.call('GET', `/api/v1/transactions/${randomUUID()}`, { key: a });

    const ub = (await usage(b)).body.data;
    expect(ub).toMatchObject({ totalCalls: 1, errorCount: 0, errorRate: 0, topOperations: [{ operation: 'getUsage', calls: 1 }] });
    const ua = (await usage(a)).body.data;
    expect(ua.totalCalls).toBe(6);
    expect(ua.errorCount).toBe(1);
    expect(ua.topOperations[0]).toEqual({ operation: 'listTransactionStatuses', calls: 4 });
    expect(ua.topOperations.map((o: any) => o.operation)).not.toContain('getHealth');
  });

  it('validates days and needs a valid key', async () => {
    const { value: key } = await newKey('usage-d');
    const bad = await usage(key, '?days=0');
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields)).toEqual(['days']);
    const one = await usage(key, '?days=1');
    expect(one.status).toBe(200);
    expect(one.body.data.days).toBe(1);
    expect(one.body.data.totalCalls).toBe(2);
    const anon = await t.call('GET', '/api/v1/usage');
    expect(anon.status).toBe(401);
    expect(anon.body.error.code).toBe('unauthorized');
  });
});

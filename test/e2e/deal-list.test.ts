/** GET /transactions (paging, `q`, `status`) and GET /transactions/resolve, over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';
import { createDeal } from './deal-fixtures.ts';
import type { Transaction } from '#db/transactions';

let t: TestApi;
let org: TestOrg;
/** Oldest-updated first: index 4 is the most recently updated. */
let deals: Transaction[];
const streets = ['1207 Live Oak Ln', '1207 Cedar Ln', '88 Live Oak Ct', '500 Congress Ave', '42 Barton Springs Rd'];
const statuses = ['Prospect', 'Prospect', 'Under Contract', 'Under Contract', 'Prospect'];

beforeAll(async () => {
  t = await startTestApi();
  org = await t.newOrg('List Realty');
  deals = [];
  for (let i = 0; i < streets.length; i++) {
    deals.push(await createDeal(org, streets[i], { status: statuses[i], at: new Date(Date.UTC(2026, 0, 1, 12, 0, i)) }));
  }
});
afterAll(() => t.close());

const list = (query: string) => t.call('GET', `/api/v1/transactions${query}`, { key: org.keys.read });
const ids = (body: any): string[] => body.data.map((d: any) => d.id);

describe('GET /transactions paging', () => {
  it('pages 2, 2, 1 newest-updated first with hasMore true, true, false and no duplicates', async () => {
    const pages = [await list('?pageSize=2&page=1'), await list('?pageSize=2&page=2'), await list('?pageSize=2&page=3')];
    pages.forEach((p) => expect(p.status).toBe(200));
    expect(pages.map((p) => p.body.data.length)).toEqual([2, 2, 1]);
    expect(pages.map((p) => p.body.hasMore)).toEqual([true, true, false]);
    expect(pages.map((p) => [p.body.page, p.body.pageSize])).toEqual([[1, 2], [2, 2], [3, 2]]);
    const all = pages.flatMap((p) => ids(p.body));
    expect(new Set(all).size).toBe(5);
    expect(all).toEqual([...deals].reverse().map((d) => d.id));
  });

  it('returns each deal with its fields and no storage attributes', async () => {
    const r = await list('?pageSize=1');
    const newest = deals[4];
    expect(r.body).toEqual({
      data: [
        {
          id: newest.id,
          propertyAddress: { street: '42 Barton Springs Rd', city: 'Austin', state: 'TX', zip: '78704' },
          address: '42 Barton Springs Rd, Austin, TX 78704',
          transactionType: 'Purchase',
          side: 'Buyer',
          status: 'Prospect',
          notes: null,
          createdAt: '2026-01-01T12:00:04.000Z',
          updatedAt: '2026-01-01T12:00:04.000Z',
          closedAt: null,
          version: 0,
        },
      ],
      page: 1,
      pageSize: 1,
      hasMore: true,
    });
  });

  it('defaults to page 1 of 25 and an empty page past the end', async () => {
    const first = await list('');
    expect(first.body).toMatchObject({ page: 1, pageSize: 25, hasMore: false });
    expect(first.body.data).toHaveLength(5);
    const past = await list('?page=9&pageSize=2');
    expect(past.body).toEqual({ data: [], page: 9, pageSize: 2, hasMore: false });
  });

  it('rejects a pageSize above the maximum with 422 naming the field', async () => {
    const r = await list('?pageSize=101');
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_error');
    expect(Object.keys(r.body.error.fields)).toEqual(['pageSize']);
  });
});

describe('GET /transactions filters', () => {
  it('q matches an address substring case-insensitively, newest first', async () => {
    const r = await list(`?q=${encodeURIComponent('LIVE oak')}`);
    expect(r.status).toBe(200);
    expect(ids(r.body)).toEqual([deals[2].id, deals[0].id]);
    expect(ids((await list(`?q=${encodeURIComponent('oak c')}`)).body)).toEqual([deals[2].id]);
    expect(ids((await list('?q=congress')).body)).toEqual([deals[3].id]);
    expect((await list('?q=nowhere-street')).body).toEqual({ data: [], page: 1, pageSize: 25, hasMore: false });
  });

  it('q pages through filtered results', async () => {
    const p1 = await list('?q=austin&pageSize=3');
    const p2 = await list('?q=austin&pageSize=3&page=2');
    expect(p1.body.hasMore).toBe(true);
    expect(p2.body.hasMore).toBe(false);
    expect([...ids(p1.body), ...ids(p2.body)]).toEqual([...deals].reverse().map((d) => d.id));
  });

  it('status filters to that status (any letter case), and combines with q', async () => {
    const uc = await list(`?status=${encodeURIComponent('Under Contract')}`);
    expect(ids(uc.body)).toEqual([deals[3].id, deals[2].id]);
    uc.body.data.forEach((d: any) => expect(d.status).toBe('Under Contract'));
    expect(ids((await list(`?status=${encodeURIComponent('under contract')}`)).body)).toEqual([deals[3].id, deals[2].id]);
    expect(ids((await list('?status=Prospect')).body)).toEqual([deals[4].id, deals[1].id, deals[0].id]);
    expect(ids((await list(`?status=Prospect&q=${encodeURIComponent('live oak')}`)).body)).toEqual([deals[0].id]);
    expect((await list('?status=Closed')).body.data).toEqual([]);
  });
});

describe('GET /transactions/resolve', () => {
  const resolve = (query: string) => t.call('GET', `/api/v1/transactions/resolve${query}`, { key: org.keys.read });

  it('ranks the exact street first, the same house number next, and drops a different house number', async () => {
    const r = await resolve(`?property=${encodeURIComponent('1207 live oak lane')}`);
    expect(r.status).toBe(200);
    expect(r.body.query).toBe('1207 live oak lane');
    expect(r.body.data.map((m: any) => m.transactionId)).toEqual([deals[0].id, deals[1].id]);
    const [best, second] = r.body.data;
    expect(best).toMatchObject({ address: '1207 Live Oak Ln, Austin, TX 78704', status: 'Prospect', score: 1 });
    expect(best.transaction.id).toBe(deals[0].id);
    expect(second.score).toBeLessThan(best.score);
    // '88 Live Oak Ct' shares the street words but not the house number: ranked out (or below).
    expect(r.body.data.some((m: any) => m.transactionId === deals[2].id)).toBe(false);
  });

  it('finds the other Live Oak deal by its own number', async () => {
    const r = await resolve(`?property=${encodeURIComponent('88 Live Oak Court')}`);
    expect(r.body.data[0].transactionId).toBe(deals[2].id);
    expect(r.body.data[0].score).toBe(1);
  });

  it('respects limit and status', async () => {
    const one = await resolve(`?property=${encodeURIComponent('1207 live oak lane')}&limit=1`);
    expect(one.body.data.map((m: any) => m.transactionId)).toEqual([deals[0].id]);
    const street = await resolve(`?property=${encodeURIComponent('Live Oak')}&limit=5`);
    expect(street.body.data.map((m: any) => m.transactionId).sort()).toEqual([deals[0].id, deals[2].id].sort());
    const uc = await resolve(`?property=${encodeURIComponent('Live Oak')}&status=${encodeURIComponent('Under Contract')}`);
    expect(uc.body.data.map((m: any) => m.transactionId)).toEqual([deals[2].id]);
  });

  it('returns empty data for nonsense and 422 without property', async () => {
    const r = await resolve(`?property=${encodeURIComponent('zzqx qwerty 99999')}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ query: 'zzqx qwerty 99999', data: [] });
    const missing = await resolve('');
    expect(missing.status).toBe(422);
    expect(missing.body.error.fields).toHaveProperty('property');
  });
});

/** GET /next-actions: the ranked feed of open tasks and key dates (clock pinned). */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { setClock } from '#ports/clock';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';
import { createDeal, pinClock, postTask, putKeyDates } from './deal-fixtures.ts';
import type { Transaction } from '#db/transactions';

let t: TestApi;
let org: TestOrg;
let x: Transaction;
let y: Transaction;
const task: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApi();
  org = await t.newOrg('Next Action Realty');
  x = await createDeal(org, '1 Xray St');
  y = await createDeal(org, '2 Yankee St');
  await putKeyDates(t, org.keys.draft, x.id, [
    { keyDateType: 'OptionPeriodEnd', dateValue: '2026-04-09', isCustom: true },
    { keyDateType: 'InspectionDeadline', dateValue: '2026-04-12' },
    { keyDateType: 'ClosingDate', dateValue: '2026-06-30' },
  ]);
  await putKeyDates(t, org.keys.draft, y.id, [{ keyDateType: 'FinancingDeadline', dateValue: '2026-04-15', label: 'Loan approval' }]);
  const add = async (name: string, deal: Transaction, body: Record<string, unknown>) => (task[name] = (await postTask(t, org.keys.draft, deal.id, { title: name, ...body })).id);
  await add('undated', x, {});
  await add('p2 same day', x, { dueDate: '2026-04-12', priority: 2 });
  await add('p1 same day', x, { dueDate: '2026-04-12', priority: 1 });
  await add('tomorrow', y, { dueDate: '2026-04-11' });
  await add('overdue 1', y, { dueDate: '2026-04-09' });
  await add('overdue 3', x, { dueDate: '2026-04-07' });
  await add('finished', x, { dueDate: '2026-04-01' });
  expect((await t.call('POST', `/api/v1/tasks/${task.finished}/complete`, { key: org.keys.draft })).status).toBe(200);
});
afterAll(() => t.close());
beforeEach(() => pinClock('2026-04-10T14:00:00Z'));
afterEach(() => setClock());

const feed = async (query = '') => {
  const r = await t.call('GET', `/api/v1/next-actions${query}`, { key: org.keys.read });
  expect(r.status).toBe(200);
  return r.body;
};
const summary = (data: any[]) => data.map((a) => [a.kind, a.title, a.daysUntil, a.overdue]);

describe('GET /next-actions', () => {
  it('ranks overdue tasks first, then by days until; a key date before a task on the same day; higher priority first', async () => {
    const body = await feed();
    expect(body.asOf).toBe('2026-04-10');
    expect(summary(body.data)).toEqual([
      ['task', 'overdue 3', -3, true],
      ['task', 'overdue 1', -1, true],
      ['task', 'tomorrow', 1, false],
      ['keyDate', 'InspectionDeadline', 2, false],
      ['task', 'p1 same day', 2, false],
      ['task', 'p2 same day', 2, false],
      ['keyDate', 'Loan approval', 5, false],
      ['task', 'undated', null, false],
    ]);
  });

  it('returns each item with its deal, date and ids', async () => {
    const { data } = await feed();
    expect(data[0]).toEqual({ kind: 'task', transactionId: x.id, address: '1 Xray St, Austin, TX 78704', title: 'overdue 3', date: '2026-04-07', priority: null, taskId: task['overdue 3'], daysUntil: -3, overdue: true });
    expect(data[3]).toEqual({ kind: 'keyDate', transactionId: x.id, address: '1 Xray St, Austin, TX 78704', title: 'InspectionDeadline', date: '2026-04-12', priority: null, keyDateType: 'InspectionDeadline', daysUntil: 2, overdue: false });
  });

  it('leaves out completed tasks, past key dates and key dates beyond 30 days', async () => {
    const titles = (await feed()).data.map((a: any) => a.title);
    expect(titles).not.toContain('finished');
    expect(titles).not.toContain('OptionPeriodEnd');
    expect(titles).not.toContain('ClosingDate');
  });

  it('respects limit', async () => {
    expect(summary((await feed('?limit=3')).data)).toEqual([
      ['task', 'overdue 3', -3, true],
      ['task', 'overdue 1', -1, true],
      ['task', 'tomorrow', 1, false],
    ]);
  });

  it('transactionId narrows the feed to one deal', async () => {
    const body = await feed(`?transactionId=${y.id}`);
    expect(summary(body.data)).toEqual([
      ['task', 'overdue 1', -1, true],
      ['task', 'tomorrow', 1, false],
      ['keyDate', 'Loan approval', 5, false],
    ]);
    body.data.forEach((a: any) => expect(a.transactionId).toBe(y.id));
    // Narrowing only filters: the deal's feed is exactly its part of the org-wide feed (same 30-day horizon).
    const xs = (await feed(`?transactionId=${x.id}`)).data;
    const all = (await feed()).data;
    expect(xs).toEqual(all.filter((a: any) => a.transactionId === x.id));
    expect(xs.map((a: any) => a.title)).not.toContain('ClosingDate');
  });

  it('moves with the clock: a day later the ranking shifts', async () => {
    pinClock('2026-04-12T01:00:00Z');
    const body = await feed('?limit=4');
    expect(body.asOf).toBe('2026-04-12');
    expect(summary(body.data)).toEqual([
      ['task', 'overdue 3', -5, true],
      ['task', 'overdue 1', -3, true],
      ['task', 'tomorrow', -1, true],
      ['keyDate', 'InspectionDeadline', 0, false],
    ]);
  });

  it('answers 404 for an unknown transactionId and 422 for a bad one', async () => {
    const unknown = await t.call('GET', `/api/v1/next-actions?transactionId=${randomUUID()}`, { key: org.keys.read });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: { code: 'not_found', message: 'Transaction not found.' } });
    const bad = await t.call('GET', '/api/v1/next-actions?transactionId=abc&limit=0', { key: org.keys.read });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['limit', 'transactionId']);
  });
});

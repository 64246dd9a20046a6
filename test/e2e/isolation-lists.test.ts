/**
 * Tenant isolation of list and search operations: org B's keys never see org A's data, even when asking
 * for it by address, status or id. Org B has data of its own so an empty answer cannot hide a leak. Every list read
 * is made twice, with B's API key and with an OAuth access token of B's owner, and both must answer the same.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { statusVocabularyItem } from '#db/statuses';
import { addUser } from '#db/orgs';
import { DEFAULT_STATUS_VOCABULARY } from '#domain/statuses';
import { setClock } from '#ports/clock';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';
import { createDeal, pinClock, postTask, putKeyDates } from './deal-fixtures.ts';
import { mintAccessToken } from '../support/oauth-flow.ts';
import type { Transaction } from '#db/transactions';

let t: TestApi;
let a: TestOrg;
let b: TestOrg;
let dealA: Transaction;
let dealB: Transaction;
let taskA: string;
let taskB: string;
let bToken: string;

beforeAll(async () => {
  t = await startTestApi();
  a = await t.newOrg('Org A Realty');
  b = await t.newOrg('Org B Realty');
  dealA = await createDeal(a, '77 Secret Garden Way', { status: 'Under Contract' });
  dealB = await createDeal(b, '5 Open Field Rd', { status: 'Prospect' });
  await putKeyDates(t, a.keys.draft, dealA.id, [{ keyDateType: 'ClosingDate', dateValue: '2026-05-05' }]);
  await putKeyDates(t, b.keys.draft, dealB.id, [{ keyDateType: 'ClosingDate', dateValue: '2026-05-06' }]);
  taskA = (await postTask(t, a.keys.draft, dealA.id, { title: 'A secret task', dueDate: '2026-05-01' })).id;
  taskB = (await postTask(t, b.keys.draft, dealB.id, { title: 'B task', dueDate: '2026-05-02' })).id;
  await addUser(a.orgId, { email: 'teammate@a.test', firstName: 'Tea', lastName: 'Mate', role: 'agent' });
  bToken = await mintAccessToken(t.baseUrl, b.orgId, b.ownerUserId, ['read']);
  // Org A configures a status of its own.
  await db().send(new PutCommand({ TableName: tableName(), Item: statusVocabularyItem(a.orgId, [...DEFAULT_STATUS_VOCABULARY, { name: 'Escrow Hold', category: 'pending', description: 'A only', cascade: [] }]) }));
});
afterAll(() => t.close());
afterEach(() => setClock());

const leaks = (body: unknown) => {
  const text = JSON.stringify(body);
  return [dealA.id, taskA, a.orgId, 'Secret Garden', 'A secret task', 'teammate@a.test', 'Escrow Hold'].filter((s) => text.includes(s));
};
/**
 * GET `path` as org B with its read key, then with B's OAuth token: the same answer (the key's is what each test
 * checks for leaks).
 * @param perCredential the answer describes the credential itself (usage): it must only not hold A's data
 */
const asB = async (path: string, perCredential = false) => {
  const r = await t.call('GET', path, { key: b.keys.read });
  expect(r.status).toBe(200);
  const viaToken = await t.call('GET', path, { key: bToken });
  expect(viaToken.status, viaToken.text).toBe(200);
  if (perCredential) expect(leaks(viaToken.body)).toEqual([]);
  else expect(viaToken.body).toEqual(r.body);
  return r.body;
};

describe("org B never sees org A's data in lists", () => {
  it('listTransactions: only B deals, with any q or status', async () => {
    expect((await asB('/api/v1/transactions')).data.map((d: any) => d.id)).toEqual([dealB.id]);
    const byAddress = await asB('/api/v1/transactions?q=secret%20garden');
    expect(byAddress.data).toEqual([]);
    const byStatus = await asB(`/api/v1/transactions?status=${encodeURIComponent('Under Contract')}`);
    expect(byStatus.data).toEqual([]);
    // Org A does see its deal with the same queries.
    const mine = await t.call('GET', '/api/v1/transactions?q=secret%20garden', { key: a.keys.read });
    expect(mine.body.data.map((d: any) => d.id)).toEqual([dealA.id]);
  });

  it('resolveTransactions: no match for A’s address', async () => {
    const r = await asB(`/api/v1/transactions/resolve?property=${encodeURIComponent('77 Secret Garden Way')}&limit=25`);
    expect(r.data).toEqual([]);
    const mine = await t.call('GET', `/api/v1/transactions/resolve?property=${encodeURIComponent('77 Secret Garden Way')}`, { key: a.keys.read });
    expect(mine.body.data.map((m: any) => m.transactionId)).toEqual([dealA.id]);
  });

  it('listUpcomingKeyDates: only B key dates', async () => {
    pinClock('2026-05-01T12:00:00Z');
    const r = await asB('/api/v1/key-dates/upcoming?horizonDays=365&limit=100');
    expect(r.data.map((k: any) => [k.transactionId, k.keyDateType, k.dateValue])).toEqual([[dealB.id, 'ClosingDate', '2026-05-06']]);
    expect(leaks(r)).toEqual([]);
  });

  it('listTasks: only B tasks, for every assignedTo filter', async () => {
    expect((await asB('/api/v1/tasks')).data.map((x: any) => x.id)).toEqual([taskB]);
    expect((await asB('/api/v1/tasks?assignedTo=unassigned')).data.map((x: any) => x.id)).toEqual([taskB]);
    expect((await asB(`/api/v1/tasks?assignedTo=${a.ownerUserId}`)).data).toEqual([]);
  });

  it('listNextActions: only B actions', async () => {
    pinClock('2026-05-01T12:00:00Z');
    const r = await asB('/api/v1/next-actions?limit=100');
    expect(r.data.map((x: any) => [x.kind, x.transactionId])).toEqual([
      ['task', dealB.id],
      ['keyDate', dealB.id],
    ]);
    expect(leaks(r)).toEqual([]);
  });

  it('listOrgUsers: only B members', async () => {
    const r = await asB('/api/v1/org/users');
    expect(r.data.map((u: any) => u.userId)).toEqual([b.ownerUserId]);
    expect(leaks(r)).toEqual([]);
    const mine = await t.call('GET', '/api/v1/org/users', { key: a.keys.read });
    expect(mine.body.data).toHaveLength(2);
  });

  it("listTransactionStatuses: A's own status is not in B's vocabulary, nor accepted for B's deals", async () => {
    const r = await asB('/api/v1/transaction-statuses');
    expect(r.data.map((s: any) => s.name)).toEqual(DEFAULT_STATUS_VOCABULARY.map((s) => s.name));
    const mine = await t.call('GET', '/api/v1/transaction-statuses', { key: a.keys.read });
    expect(mine.body.data.at(-1).name).toBe('Escrow Hold');
    const set = await t.call('PATCH', `/api/v1/transactions/${dealB.id}/status`, { key: b.keys.actions, body: { status: 'Escrow Hold' } });
    expect(set.status).toBe(422);
    expect(set.body.error.fields.status).not.toContain('Escrow Hold');
  });

  it("getUsage: B's key reports only its own calls", async () => {
    for (let i = 0; i < 3; i++) await t.call('GET', '/api/v1/health', { key: a.keys.read });
    const r = await asB('/api/v1/usage', true);
    expect(r.data.topOperations.map((o: any) => o.operation)).not.toContain('getHealth');
    expect(r.keyId).not.toBe((await t.call('GET', '/api/v1/usage', { key: a.keys.read })).body.keyId);
  });

  it("listContacts and listContactRoles: only B's contacts and roles, with any q", async () => {
    for (const [org, body] of [[a, { firstName: 'Secret', lastName: 'Client', email: 'client@secret-garden.test' }], [b, { firstName: 'Open', lastName: 'Client' }]] as const) {
      expect((await t.call('POST', '/api/v1/contacts', { key: org.keys.actions, body })).status).toBe(200);
    }
    expect((await t.call('POST', '/api/v1/contact-roles', { key: a.keys.actions, body: { name: 'Secret Garden Keeper' } })).status).toBe(200);

    expect((await asB('/api/v1/contacts')).data.map((c: any) => c.name)).toEqual(['Open Client']);
    for (const q of ['secret', 'client@secret-garden.test', 'client']) {
      const r = await asB(`/api/v1/contacts?q=${encodeURIComponent(q)}`);
      expect(r.data.map((c: any) => c.name)).toEqual(q === 'client' ? ['Open Client'] : []);
      expect(leaks(r)).toEqual([]);
    }
    expect(leaks(await asB('/api/v1/contact-roles'))).toEqual([]);
    const mine = await t.call('GET', '/api/v1/contacts?q=secret', { key: a.keys.read });
    expect(mine.body.data.map((c: any) => c.name)).toEqual(['Secret Client']);
  });

  it("deleteTasks: A's task id is notFound for B and survives", async () => {
    const r = await t.call('POST', '/api/v1/tasks/delete', { key: b.keys.actions, body: { taskIds: [taskA] } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ deleted: [], notFound: [taskA] });
    const mine = await t.call('GET', '/api/v1/tasks', { key: a.keys.read });
    expect(mine.body.data.map((x: any) => x.id)).toEqual([taskA]);
  });
});

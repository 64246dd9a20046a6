/**
 * Spec "Scopes": a credential missing the operation's scope gets 403 `insufficient_scope`, and
 * `GET /api/v1/catalog` reports per operation whether the calling key can call it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Transaction } from '#db/transactions';
import { createTransaction } from '#use-cases/create-transaction';
import { isImplemented } from '#api/operation';
import { loadOperations } from '#lib/registry';

const operations = await loadOperations();
import { startTestApi, type ApiResponse, type TestApi, type TestOrg } from '../support/http-client.ts';

let t: TestApi;
let org: TestOrg;
let deal: Transaction;
beforeAll(async () => {
  t = await startTestApi();
  org = await t.newOrg('Scopes Realty');
  deal = await createTransaction(
    { orgId: org.orgId, userId: org.ownerUserId },
    { propertyAddress: { street: '12 Scope St', city: 'Austin', state: 'TX', zip: '78701' }, transactionType: 'Purchase', side: 'Buyer', status: 'Prospect', notes: 'original' },
  );
});
afterAll(() => t.close());

function expectScopeError(r: ApiResponse, scope: string) {
  expect(r.status).toBe(403);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Object.keys(r.body)).toEqual(['error']);
  expect(Object.keys(r.body.error).sort()).toEqual(['code', 'message']);
  expect(r.body.error.code).toBe('insufficient_scope');
  expect(r.body.error.message).toContain(scope);
  // RFC 6750 §3: the challenge names the scope to ask for.
  expect(r.headers.get('www-authenticate')).toMatch(new RegExp(`^Bearer error="insufficient_scope", scope="${scope}", resource_metadata="`));
}

describe('403 insufficient_scope', () => {
  it('read key on PATCH notes (draft) → 403, and the notes are unchanged', async () => {
    const r = await t.call('PATCH', `/api/v1/transactions/${deal.id}/notes`, { key: org.keys.read, body: { notes: 'hijacked' } });
    expectScopeError(r, 'draft');
    const after = await t.call('GET', `/api/v1/transactions/${deal.id}`, { key: org.keys.read });
    expect(after.status).toBe(200);
    expect(after.body.data.notes).toBe('original');
  });

  it('read key on PATCH status (actions) → 403, and the status is unchanged', async () => {
    const r = await t.call('PATCH', `/api/v1/transactions/${deal.id}/status`, { key: org.keys.read, body: { status: 'Under Contract' } });
    expectScopeError(r, 'actions');
    const after = await t.call('GET', `/api/v1/transactions/${deal.id}`, { key: org.keys.read });
    expect(after.body.data.status).toBe('Prospect');
  });

  it('draft key on PATCH status (actions) → 403', async () => {
    const r = await t.call('PATCH', `/api/v1/transactions/${deal.id}/status`, { key: org.keys.draft, body: { status: 'Active Listing' } });
    expectScopeError(r, 'actions');
  });

  it('draft key on POST /api/v1/tasks/delete (actions) → 403, and the task survives', async () => {
    const created = await t.call('POST', `/api/v1/transactions/${deal.id}/tasks`, { key: org.keys.draft, body: { title: 'Keep me' } });
    expect(created.status).toBe(200);
    const taskId = created.body.data.id;
    const r = await t.call('POST', '/api/v1/tasks/delete', { key: org.keys.draft, body: { taskIds: [taskId] } });
    expectScopeError(r, 'actions');
    const after = await t.call('GET', `/api/v1/transactions/${deal.id}`, { key: org.keys.read });
    expect(after.body.data.tasks.map((x: { id: string }) => x.id)).toContain(taskId);
  });

  it('read key on POST .../tasks (draft) → 403', async () => {
    const r = await t.call('POST', `/api/v1/transactions/${deal.id}/tasks`, { key: org.keys.read, body: { title: 'No' } });
    expectScopeError(r, 'draft');
  });

  it('the scope check precedes body validation and the resource lookup', async () => {
    expectScopeError(await t.call('PATCH', `/api/v1/transactions/${deal.id}/notes`, { key: org.keys.read, body: '{broken' }), 'draft');
    expectScopeError(await t.call('PATCH', `/api/v1/transactions/${crypto.randomUUID()}/notes`, { key: org.keys.read, body: { notes: 'x' } }), 'draft');
  });

  it('with the needed scope the same calls succeed (controls)', async () => {
    const notes = await t.call('PATCH', `/api/v1/transactions/${deal.id}/notes`, { key: org.keys.draft, body: { notes: 'by draft' } });
    expect(notes.status).toBe(200);
    expect(notes.body.data.notes).toBe('by draft');

    const status = await t.call('PATCH', `/api/v1/transactions/${deal.id}/status`, { key: org.keys.actions, body: { status: 'Active Listing' } });
    expect(status.status).toBe(200);
    expect(status.body.data.status).toBe('Active Listing');

    const del = await t.call('POST', '/api/v1/tasks/delete', { key: org.keys.actions, body: { taskIds: [crypto.randomUUID()] } });
    expect(del.status).toBe(200);
  });
});

describe('GET /api/v1/catalog', () => {
  const implementedRead = operations.filter((op) => op.access === 'read' && isImplemented(op));

  it('lists every operation exactly once, with the read key\'s scopes', async () => {
    const r = await t.call('GET', '/api/v1/catalog', { key: org.keys.read });
    expect(r.status).toBe(200);
    expect(r.body.scopes).toEqual(['read']);
    const data: { operation: string; method: string; path: string; scope: string; callable: boolean }[] = r.body.data;
    expect(data).toHaveLength(operations.length);
    expect(new Set(data.map((d) => d.operation)).size).toBe(data.length);
    expect(new Set(data.map((d) => `${d.method} ${d.path}`)).size).toBe(data.length);
    expect(data.map((d) => d.operation).sort()).toEqual(operations.map((op) => op.operationId).sort());
    for (const d of data) expect(typeof d.callable).toBe('boolean');
  });

  it('read key: draft, actions and partner operations are not callable; implemented reads are', async () => {
    const r = await t.call('GET', '/api/v1/catalog', { key: org.keys.read });
    const data: { operation: string; scope: string; callable: boolean }[] = r.body.data;
    const byId = new Map(data.map((d) => [d.operation, d]));
    for (const op of operations) {
      const entry = byId.get(op.operationId)!;
      expect(entry.scope, op.operationId).toBe(op.access);
      if (op.access !== 'read') expect(entry.callable, op.operationId).toBe(false);
    }
    expect(implementedRead.length).toBeGreaterThan(0);
    for (const op of implementedRead) expect(byId.get(op.operationId)!.callable, op.operationId).toBe(true);
    expect(byId.get('getHealth')!.callable).toBe(true);
    expect(byId.get('listTransactions')!.callable).toBe(true);
    expect(byId.get('updateTransactionNotes')!.callable).toBe(false);
    expect(byId.get('updateTransactionStatus')!.callable).toBe(false);
    expect(byId.get('listPartnerOrgs')!.callable).toBe(false);
  });

  it('draft key: draft operations become callable, actions ones stay not callable', async () => {
    const r = await t.call('GET', '/api/v1/catalog', { key: org.keys.draft });
    expect(r.body.scopes).toEqual(['read', 'draft']);
    const byId = new Map(r.body.data.map((d: { operation: string }) => [d.operation, d]));
    expect(byId.get('updateTransactionNotes')).toMatchObject({ callable: true });
    expect(byId.get('createTask')).toMatchObject({ callable: true });
    expect(byId.get('updateTransactionStatus')).toMatchObject({ callable: false });
    expect(byId.get('deleteTasks')).toMatchObject({ callable: false });
  });

  it('actions key: PATCH status is callable; partner operations still are not', async () => {
    const r = await t.call('GET', '/api/v1/catalog', { key: org.keys.actions });
    expect(r.status).toBe(200);
    expect(r.body.scopes).toEqual(['read', 'draft', 'actions']);
    const data: { operation: string; method: string; path: string; scope: string; callable: boolean }[] = r.body.data;
    const status = data.find((d) => d.method === 'PATCH' && d.path === '/api/v1/transactions/{transactionId}/status');
    expect(status).toMatchObject({ operation: 'updateTransactionStatus', scope: 'actions', callable: true });
    expect(data.find((d) => d.operation === 'deleteTasks')!.callable).toBe(true);
    const partnerOps = data.filter((x) => x.scope === 'partner');
    expect(partnerOps.length).toBe(7);
    for (const d of partnerOps) expect(d.callable, d.operation).toBe(false);
  });
});

/**
 * Tenant isolation of every implemented operation that takes a resource id (spec "Tenant isolation"): org
 * B's actions key on org A's ids answers 404 `not_found` exactly like a random id, and org A's resource
 * is unchanged afterwards. Driven by CASES: a newly implemented operation with a `{...Id}` path parameter
 * fails the coverage test until it gets a row here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { operations } from '#api/operations';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';
import { createDeal, outboxEvents, postTask, putKeyDates } from './deal-fixtures.ts';
import { pdfBytes, startTestS3, waitFor, type TestS3 } from './documents-fixtures.ts';

interface Ids {
  transactionId: string;
  taskId: string;
  commentId: string;
  documentId: string;
  jobId: string;
}
interface Case {
  /** operationId in the manifest. */
  op: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: (ids: Ids) => string;
  body?: (ids: Ids, b: TestOrg) => unknown;
}

const txn = (ids: Ids) => `/api/v1/transactions/${ids.transactionId}`;
const task = (ids: Ids) => `/api/v1/tasks/${ids.taskId}`;
const doc = (ids: Ids) => `/api/v1/documents/${ids.documentId}`;
const job = (ids: Ids) => `/api/v1/extractions/${ids.jobId}`;

const CASES: Case[] = [
  { op: 'getTransaction', method: 'GET', path: txn },
  { op: 'addTransactionActivity', method: 'POST', path: (i) => `${txn(i)}/activity`, body: () => ({ type: 'note', summary: 'from org B' }) },
  { op: 'updateTransactionStatus', method: 'PATCH', path: (i) => `${txn(i)}/status`, body: () => ({ status: 'Closed' }) },
  { op: 'updateTransactionNotes', method: 'PATCH', path: (i) => `${txn(i)}/notes`, body: () => ({ notes: 'hijacked by org B' }) },
  { op: 'listKeyDates', method: 'GET', path: (i) => `${txn(i)}/key-dates` },
  { op: 'upsertKeyDates', method: 'POST', path: (i) => `${txn(i)}/key-dates`, body: () => ({ keyDates: [{ keyDateType: 'ClosingDate', dateValue: '2030-01-01' }] }) },
  { op: 'updateKeyDate', method: 'PATCH', path: (i) => `${txn(i)}/key-dates/ClosingDate`, body: () => ({ newValue: '2030-01-01' }) },
  { op: 'createTask', method: 'POST', path: (i) => `${txn(i)}/tasks`, body: () => ({ title: 'planted by org B' }) },
  { op: 'assignTask', method: 'POST', path: (i) => `${task(i)}/assign`, body: (_i, b) => ({ assigneeUserId: b.ownerUserId }) },
  { op: 'completeTask', method: 'POST', path: (i) => `${task(i)}/complete`, body: () => ({ note: 'org B' }) },
  { op: 'listTaskComments', method: 'GET', path: (i) => `${task(i)}/comments` },
  { op: 'addTaskComment', method: 'POST', path: (i) => `${task(i)}/comments`, body: () => ({ content: 'org B was here' }) },
  { op: 'deleteTaskComment', method: 'DELETE', path: (i) => `${task(i)}/comments/${i.commentId}` },
  { op: 'listNextActions', method: 'GET', path: (i) => `/api/v1/next-actions?transactionId=${i.transactionId}` },
  { op: 'listTasks', method: 'GET', path: (i) => `/api/v1/tasks?transactionId=${i.transactionId}` },
  { op: 'listTransactionDocuments', method: 'GET', path: (i) => `${txn(i)}/documents` },
  { op: 'reorderTransactionDocuments', method: 'POST', path: (i) => `${txn(i)}/documents/reorder`, body: (i) => ({ orderedDocumentIds: [i.documentId] }) },
  { op: 'listMissingDocuments', method: 'GET', path: (i) => `${txn(i)}/missing-documents` },
  { op: 'getDocument', method: 'GET', path: doc },
  { op: 'getDocumentDownloadUrl', method: 'GET', path: (i) => `${doc(i)}/download-url` },
  { op: 'updateDocument', method: 'PATCH', path: doc, body: () => ({ name: 'renamed by org B.pdf', documentType: 'other' }) },
  { op: 'deleteDocument', method: 'DELETE', path: doc },
  { op: 'extractDocument', method: 'POST', path: (i) => `${doc(i)}/extract` },
  { op: 'getExtraction', method: 'GET', path: job },
  { op: 'getExtractionSourceUrl', method: 'GET', path: (i) => `${job(i)}/source-url` },
];

let t: TestApi;
let s3: TestS3;
let a: TestOrg;
let b: TestOrg;
let ids: Ids;

/** Everything org A can see of its resources, read with org A's key. */
async function snapshotA() {
  // The document reads use A's actions key: each key has its own read budget (300 per minute).
  const get = async (path: string, key = a.keys.read) => {
    const r = await t.call('GET', path, { key });
    expect(r.status).toBe(200);
    return r.body;
  };
  return {
    deal: await get(`/api/v1/transactions/${ids.transactionId}`),
    comments: await get(`/api/v1/tasks/${ids.taskId}/comments`),
    tasks: await get('/api/v1/tasks'),
    documents: await get(`/api/v1/transactions/${ids.transactionId}/documents`, a.keys.actions),
    document: await get(`/api/v1/documents/${ids.documentId}`, a.keys.actions),
    job: await get(`/api/v1/extractions/${ids.jobId}`, a.keys.actions),
    events: (await outboxEvents(a.orgId)).map((e) => e.eventId).sort(),
  };
}

beforeAll(async () => {
  t = await startTestApi();
  s3 = await startTestS3();
  a = await t.newOrg('Org A Realty');
  b = await t.newOrg('Org B Realty');
  const deal = await createDeal(a, '100 Private Ln', { status: 'Under Contract' });
  await putKeyDates(t, a.keys.draft, deal.id, [{ keyDateType: 'ClosingDate', dateValue: '2026-12-30' }]);
  const tk = await postTask(t, a.keys.draft, deal.id, { title: 'A task', linkedMilestoneName: 'ClosingDate', dueDate: '2026-12-28' });
  const c = await t.call('POST', `/api/v1/tasks/${tk.id}/comments`, { key: a.keys.draft, body: { content: 'A comment' } });
  expect(c.status).toBe(200);
  const up = await t.call('POST', '/api/v1/documents', { key: a.keys.draft, body: { fileName: 'A contract.pdf', contentBase64: pdfBytes().toString('base64'), transactionId: deal.id } });
  expect(up.status).toBe(200);
  await waitFor(async () => ((await t.call('GET', `/api/v1/documents/${up.body.data.documentId}`, { key: a.keys.read })).body.data.uploadState === 'uploaded' ? true : undefined));
  ids = { transactionId: deal.id, taskId: tk.id, commentId: c.body.data.id, documentId: up.body.data.documentId, jobId: up.body.data.jobId };
  // Org B has data of its own, so a leak could not hide behind an empty org.
  const own = await createDeal(b, '200 Public Ave');
  await postTask(t, b.keys.draft, own.id, { title: 'B task' });
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

describe('tenant isolation of operations with a resource id', () => {
  it('the case table covers every implemented operation with a {...Id} path parameter', () => {
    const withIds = operations
      .filter((op) => op.availability.status === 'implemented' && /\{\w*Id\}/.test(op.path))
      .map((op) => op.operationId);
    expect(withIds.length).toBeGreaterThan(0);
    const covered = new Set(CASES.map((c) => c.op));
    expect(withIds.filter((op) => !covered.has(op))).toEqual([]);
  });

  it('every case names a real implemented operation with the method of the manifest', () => {
    for (const c of CASES) {
      const op = operations.find((o) => o.operationId === c.op);
      expect(op, c.op).toBeDefined();
      expect(op!.availability.status, c.op).toBe('implemented');
      expect(op!.method, c.op).toBe(c.method);
    }
  });

  it.each(CASES.map((c) => [c.op, c] as const))("%s: org B gets the random-id 404 on org A's resource, and A is unchanged", async (_name, c) => {
    const before = await snapshotA();
    const random: Ids = { transactionId: randomUUID(), taskId: randomUUID(), commentId: randomUUID(), documentId: randomUUID(), jobId: randomUUID() };

    const foreign = await t.call(c.method, c.path(ids), { key: b.keys.actions, body: c.body?.(ids, b) });
    const unknown = await t.call(c.method, c.path(random), { key: b.keys.actions, body: c.body?.(random, b) });

    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    expect(unknown.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
    expect(foreign.text).not.toContain(ids.transactionId);
    expect(foreign.text).not.toContain('100 Private');

    // The same call with org A's own key succeeds, so the 404 above is isolation, not a broken route.
    if (c.method === 'GET') expect((await t.call(c.method, c.path(ids), { key: a.keys.read })).status).toBe(200);

    expect(await snapshotA()).toEqual(before);
  });

  it('org B wrote no events and no data about org A', async () => {
    const bEvents = await outboxEvents(b.orgId);
    expect(bEvents.filter((e) => [ids.transactionId, ids.taskId, ids.documentId, ids.jobId].some((id) => JSON.stringify(e.data).includes(id)))).toEqual([]);
    const deal = (await t.call('GET', `/api/v1/transactions/${ids.transactionId}`, { key: a.keys.read })).body.data;
    expect(deal).toMatchObject({ status: 'Under Contract', notes: null, closedAt: null, recentActivity: [] });
    expect(deal.keyDates.map((k: any) => k.dateValue)).toEqual(['2026-12-30']);
    expect(deal.tasks.map((x: any) => [x.title, x.status, x.assigneeUserId, x.dueDate])).toEqual([['A task', 'open', null, '2026-12-28']]);
    const comments = (await t.call('GET', `/api/v1/tasks/${ids.taskId}/comments`, { key: a.keys.read })).body.data;
    expect(comments.map((x: any) => x.content)).toEqual(['A comment']);
  });
});

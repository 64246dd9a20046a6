/**
 * Spec "Errors" / "Conventions": invalid body, query or identifier → 422 `validation_error` with `fields`
 * naming each bad field; int32 parameters accept an integer or a string of digits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Transaction } from '#db/transactions';
import { createTransaction } from '#use-cases/create-transaction';
import { startTestApi, type ApiResponse, type TestApi, type TestOrg } from '../support/http-client.ts';

let t: TestApi;
let org: TestOrg;
let deal: Transaction;
const actor = () => ({ orgId: org.orgId, userId: org.ownerUserId });
const address = (street: string) => ({ street, city: 'Austin', state: 'TX', zip: '78704' });

beforeAll(async () => {
  t = await startTestApi();
  org = await t.newOrg('Validation Realty');
  deal = await createTransaction(actor(), { propertyAddress: address('3 Valid Way'), transactionType: 'Purchase', side: 'Buyer', status: 'Prospect', notes: 'keep' });
  for (const street of ['4 Valid Way', '5 Valid Way']) {
    await createTransaction(actor(), { propertyAddress: address(street), transactionType: 'Sale', side: 'Seller', status: 'Prospect' });
  }
});
afterAll(() => t.close());

/** Asserts a 422 envelope whose `fields` has exactly `names` (each with a non-empty message). */
function expectValidation(r: ApiResponse, names: string[]) {
  expect(r.status).toBe(422);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Object.keys(r.body)).toEqual(['error']);
  expect(Object.keys(r.body.error).sort()).toEqual(['code', 'fields', 'message']);
  expect(r.body.error.code).toBe('validation_error');
  expect(typeof r.body.error.message).toBe('string');
  expect(Object.keys(r.body.error.fields).sort()).toEqual([...names].sort());
  for (const n of names) {
    expect(typeof r.body.error.fields[n]).toBe('string');
    expect(r.body.error.fields[n].length).toBeGreaterThan(0);
  }
}

const notesPath = () => `/api/v1/transactions/${deal.id}/notes`;
const tasksPath = () => `/api/v1/transactions/${deal.id}/tasks`;

describe('422: bodies', () => {
  it('malformed JSON → fields.body, and nothing is written', async () => {
    const r = await t.call('PATCH', notesPath(), { key: org.keys.draft, body: '{"notes": "x"' });
    expectValidation(r, ['body']);
    expect(r.body.error.fields.body).toMatch(/json/i);
    const after = await t.call('GET', `/api/v1/transactions/${deal.id}`, { key: org.keys.read });
    expect(after.body.data.notes).toBe('keep');
  });

  it('malformed JSON on POST .../tasks → fields.body', async () => {
    expectValidation(await t.call('POST', tasksPath(), { key: org.keys.draft, body: "{title: 'unquoted'}" }), ['body']);
  });

  it('wrong type: title 123 on POST .../tasks → fields.title', async () => {
    expectValidation(await t.call('POST', tasksPath(), { key: org.keys.draft, body: { title: 123 } }), ['title']);
  });

  it('several bad fields are all reported', async () => {
    const r = await t.call('POST', tasksPath(), { key: org.keys.draft, body: { title: '', priority: 9, assigneeUserId: 'nobody', dueDate: 'soon' } });
    expectValidation(r, ['title', 'priority', 'assigneeUserId', 'dueDate']);
  });

  it('a JSON array or scalar instead of an object → 422', async () => {
    const arr = await t.call('PATCH', notesPath(), { key: org.keys.draft, body: '[]' });
    expect(arr.status).toBe(422);
    expect(arr.body.error.code).toBe('validation_error');
    const str = await t.call('PATCH', notesPath(), { key: org.keys.draft, body: '"notes"' });
    expect(str.status).toBe(422);
    expect(Object.keys(str.body.error.fields).length).toBeGreaterThan(0);
  });

  it('missing required body on POST .../activity → fields.body', async () => {
    const r = await t.call('POST', `/api/v1/transactions/${deal.id}/activity`, { key: org.keys.draft });
    expectValidation(r, ['body']);
    expect(r.body.error.fields.body).toMatch(/required/i);
  });

  it('an empty object on POST .../activity → fields.type and fields.summary', async () => {
    expectValidation(await t.call('POST', `/api/v1/transactions/${deal.id}/activity`, { key: org.keys.draft, body: {} }), ['type', 'summary']);
  });

  it('missing required field on PATCH notes (notes absent, not null) → fields.notes', async () => {
    expectValidation(await t.call('PATCH', notesPath(), { key: org.keys.draft, body: {} }), ['notes']);
  });

  it('PATCH status: absent, null, blank or unknown status → fields.status; the status is unchanged', async () => {
    const path = `/api/v1/transactions/${deal.id}/status`;
    for (const body of [{}, { status: null }, { status: '   ' }, { status: 'Sold-ish' }]) {
      expectValidation(await t.call('PATCH', path, { key: org.keys.actions, body }), ['status']);
    }
    const unknown = await t.call('PATCH', path, { key: org.keys.actions, body: { status: 'Sold-ish' } });
    expect(unknown.body.error.fields.status).toContain('Under Contract');
    const read = await t.call('GET', `/api/v1/transactions/${deal.id}`, { key: org.keys.read });
    expect(read.body.data.status).toBe('Prospect');
  });

  it('an empty taskIds array on POST /api/v1/tasks/delete → fields.taskIds', async () => {
    expectValidation(await t.call('POST', '/api/v1/tasks/delete', { key: org.keys.actions, body: { taskIds: [] } }), ['taskIds']);
  });

  it('a bad uuid inside an array is named with its index', async () => {
    const r = await t.call('POST', '/api/v1/tasks/delete', { key: org.keys.actions, body: { taskIds: [crypto.randomUUID(), 'nope'] } });
    expectValidation(r, ['taskIds[1]']);
  });
});

describe('422: identifiers and query parameters', () => {
  it('GET /api/v1/transactions/not-a-uuid → fields.transactionId', async () => {
    const r = await t.call('GET', '/api/v1/transactions/not-a-uuid', { key: org.keys.read });
    expectValidation(r, ['transactionId']);
    expect(r.body.error.fields.transactionId).toMatch(/uuid/i);
  });

  it('a malformed percent-escape in a path id → 422 fields.transactionId (not a hung request)', async () => {
    expectValidation(await t.call('GET', '/api/v1/transactions/%ZZ', { key: org.keys.read }), ['transactionId']);
    expectValidation(await t.call('PATCH', '/api/v1/transactions/%E0%A4%A/notes', { key: org.keys.draft, body: { notes: 'x' } }), ['transactionId']);
  });

  it('a percent-encoded valid uuid is decoded and found', async () => {
    const encoded = [...deal.id].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const r = await t.call('GET', `/api/v1/transactions/${encoded}`, { key: org.keys.read });
    expect(r.status).toBe(200);
    expect(r.body.data.id).toBe(deal.id);
  });

  it('a bad path id and a bad body are reported together', async () => {
    expectValidation(await t.call('POST', '/api/v1/transactions/123/tasks', { key: org.keys.draft, body: { title: 5 } }), ['transactionId', 'title']);
  });

  it.each([
    ['pageSize=0', 'pageSize'],
    ['pageSize=1000', 'pageSize'],
    ['pageSize=-1', 'pageSize'],
    ['pageSize=2.5', 'pageSize'],
    ['pageSize=', 'pageSize'],
    ['page=abc', 'page'],
    ['page=0', 'page'],
    ['page=abc&pageSize=0', 'page,pageSize'],
  ])('GET /api/v1/transactions?%s → 422 fields %s', async (qs, names) => {
    expectValidation(await t.call('GET', `/api/v1/transactions?${qs}`, { key: org.keys.read }), names.split(','));
  });
});

describe('int32 accepts an integer or a string of digits', () => {
  it('pageSize="2" (query strings are always text) → 200 with pageSize 2 and two deals', async () => {
    const r = await t.call('GET', '/api/v1/transactions?pageSize=2', { key: org.keys.read });
    expect(r.status).toBe(200);
    expect(r.body.pageSize).toBe(2);
    expect(r.body.page).toBe(1);
    expect(r.body.data).toHaveLength(2);
    expect(r.body.hasMore).toBe(true);
  });

  it('page=2&pageSize=2 returns the remaining deal as numbers', async () => {
    const r = await t.call('GET', '/api/v1/transactions?page=2&pageSize=2', { key: org.keys.read });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ page: 2, pageSize: 2, hasMore: false });
    expect(r.body.data).toHaveLength(1);
  });

  it('defaults apply when absent: page 1, pageSize 25', async () => {
    const r = await t.call('GET', '/api/v1/transactions', { key: org.keys.read });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ page: 1, pageSize: 25 });
    expect(r.body.data).toHaveLength(3);
  });

  it('priority as the JSON string "3" is accepted and stored as the number 3', async () => {
    const r = await t.call('POST', tasksPath(), { key: org.keys.draft, body: { title: 'String priority', priority: '3' } });
    expect(r.status).toBe(200);
    expect(r.body.data.priority).toBe(3);
    const read = await t.call('GET', `/api/v1/transactions/${deal.id}`, { key: org.keys.read });
    const task = read.body.data.tasks.find((x: { id: string }) => x.id === r.body.data.id);
    expect(task.priority).toBe(3);
    expect(typeof task.priority).toBe('number');
  });

  it('priority as the JSON number 3 is accepted the same way', async () => {
    const r = await t.call('POST', tasksPath(), { key: org.keys.draft, body: { title: 'Number priority', priority: 3 } });
    expect(r.status).toBe(200);
    expect(r.body.data.priority).toBe(3);
  });

  it.each([['"3.5"', '3.5'], ['3.5', 3.5], ['"three"', 'three'], ['"6" (over max 5)', '6'], ['-1 (under min 0)', -1], ['true', true], ['"" (empty)', '']])(
    'priority %s → 422 fields.priority',
    async (_label, priority) => {
      expectValidation(await t.call('POST', tasksPath(), { key: org.keys.draft, body: { title: 'Bad priority', priority } }), ['priority']);
    },
  );

  it('rejected task bodies created nothing', async () => {
    const read = await t.call('GET', `/api/v1/transactions/${deal.id}`, { key: org.keys.read });
    const titles = read.body.data.tasks.map((x: { title: string }) => x.title).sort();
    expect(titles).toEqual(['Number priority', 'String priority']);
  });
});

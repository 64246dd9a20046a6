/**
 * The bug classes of issue 8 at the edge, one concrete request each (the fuzz suite, fuzz-edge-suite.ts, walks
 * them generically): impossible dates, maps keyed by Object members, unbounded ids, names that are not
 * well-formed Unicode or hold control characters. Each is a 422 envelope that names the field and stores
 * nothing; legitimate odd names are kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi, TestOrg } from '../support/http-client.ts';
import { snapshot } from '../support/table-snapshot.ts';
import { pdfBytes, startDocumentsHarness, uploadAndComplete, type DocumentsHarness } from './documents-fixtures.ts';
import { createDeal } from './deal-fixtures.ts';

let h: DocumentsHarness;
let t: TestApi;
let org: TestOrg;
let dealId: string;
const savedLocal = process.env.LOCAL_MODE;
beforeAll(async () => {
  process.env.LOCAL_MODE = 'true';
  h = await startDocumentsHarness('Edge Realty', 'Other Edge Realty');
  ({ t, org } = h);
  dealId = (await createDeal(org, '1 Edge St')).id;
});
afterAll(async () => {
  await h.close();
  if (savedLocal === undefined) delete process.env.LOCAL_MODE;
  else process.env.LOCAL_MODE = savedLocal;
});

/** Sends the request and expects a 422 naming `field`, with nothing stored. */
async function expectRefused(method: string, path: string, key: string, body: unknown, field: string) {
  await h.s3.idle();
  const before = await snapshot();
  const r = await t.call(method, path, { key, body });
  await h.s3.idle();
  expect(r.status, r.text).toBe(422);
  expect(r.body.error.code).toBe('validation_error');
  expect(Object.keys(r.body.error.fields)).toContain(field);
  expect(await snapshot()).toEqual(before);
}

describe('impossible dates are refused, not rolled over or kept', () => {
  it.each(['2027-02-30', '2027-02-28T25:00:00Z', '2027-02-28T10:00:00+24:00', '2027-02-28Tjunk', '9999-12-31'])('key date %s → 422', async (dateValue) => {
    await expectRefused('POST', `/api/v1/transactions/${dealId}/key-dates`, org.keys.draft, { keyDates: [{ keyDateType: 'ClosingDate', dateValue }] }, 'keyDates[0].dateValue');
  });

  it.each(['2027-02-30', 'March 7, 2027', '2027'])('task dueDate %s → 422 (it is a calendar date)', async (dueDate) => {
    await expectRefused('POST', `/api/v1/transactions/${dealId}/tasks`, org.keys.draft, { title: 'x', dueDate }, 'dueDate');
  });
});

describe('maps keyed by Object members', () => {
  it('overrides named constructor / toString / valueOf are refused, nothing applied (was a 500)', async () => {
    const { jobId } = await uploadAndComplete(t, org);
    await expectRefused('POST', '/api/v1/transactions', org.keys.actions, { extractionJobId: jobId, overrides: { constructor: 1, toString: 'x', valueOf: null } }, 'overrides.constructor');
  });

  it('a body with a __proto__ key is refused wherever the key is', async () => {
    await expectRefused('POST', '/api/v1/webhooks', org.keys.actions, '{"name":"h","url":"http://127.0.0.1:9/hook","events":["*"],"headers":{"__proto__":{"x":"1"}}}', 'headers.__proto__');
  });

  it('webhook headers named constructor or toString are refused (they were a 500: the item could not be marshalled)', async () => {
    await expectRefused('POST', '/api/v1/webhooks', org.keys.actions, { name: 'h', url: 'http://127.0.0.1:9/hook', events: ['*'], headers: { constructor: 'a', toString: 'b' } }, 'headers.constructor');
  });

  it('header names that only look like them are kept', async () => {
    const r = await t.call('POST', '/api/v1/webhooks', { key: org.keys.actions, body: { name: 'h', url: 'http://127.0.0.1:9/hook', events: ['*'], headers: { Constructor: 'a', 'X-toString': 'b' } } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.headers).toEqual({ Constructor: 'a', 'X-toString': 'b' });
  });

  it('the event type toString is refused', async () => {
    await expectRefused('POST', '/api/v1/webhooks', org.keys.actions, { name: 'h', url: 'http://127.0.0.1:9/hook', events: ['toString'] }, 'events[0]');
  });
});

describe('ids are bounded and well-formed before they reach a key', () => {
  it('an apply transactionId that is not a uuid → 422 (it reached a DynamoDB key condition)', async () => {
    await expectRefused('POST', '/api/v1/transactions', org.keys.actions, { extractionJobId: crypto.randomUUID(), transactionId: 'x'.repeat(3000) }, 'transactionId');
  });

  it('an upper-case uuid finds the same deal', async () => {
    const r = await t.call('GET', `/api/v1/transactions/${dealId.toUpperCase()}`, { key: org.keys.read });
    expect(r.status).toBe(200);
    expect(r.body.data.id).toBe(dealId);
  });
});

describe('names are well-formed, NFC, without control characters', () => {
  const upload = (fileName: string) => ({ fileName, contentBase64: pdfBytes().toString('base64'), extract: false });

  it.each([
    ['a lone surrogate', 'contract\ud800.pdf'],
    ['a NUL', 'contract\u0000.pdf'],
    ['a right-to-left override', 'invoice\u202efdp.exe'],
    ['a line feed', 'two\nlines.pdf'],
  ])('a file name with %s → 422, nothing stored', async (_what, fileName) => {
    await expectRefused('POST', '/api/v1/documents', org.keys.draft, upload(fileName), 'fileName');
  });

  it('a decomposed name is stored NFC, and its download URL works', async () => {
    const r = await t.call('POST', '/api/v1/documents', { key: org.keys.draft, body: upload('Re\u0301sume\u0301.pdf') });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.document.name).toBe('Résumé.pdf'.normalize('NFC'));
  });
});

/**
 * A deal's documents over HTTP: list in display order, reorder (exactly the deal's documents, else 422),
 * update (type, name, attach to the organization's deal only), delete (the file too, with
 * `document.deleted`), and missing documents against the purchase baseline, which follows the applied
 * contract's financing and HOA.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { TestApi, TestOrg } from '../support/http-client.ts';
import { createDeal, eventsFor, outboxEvents } from './deal-fixtures.ts';
import { extractionResult, pdfBytes, startDocumentsHarness, TREC_VALUES, uploadAndComplete, waitFor, type DocumentsHarness } from './documents-fixtures.ts';
import { headObject } from '#ports/blob-store';

let h: DocumentsHarness;
let t: TestApi;
let org: TestOrg;
let other: TestOrg;
beforeAll(async () => {
  h = await startDocumentsHarness('Docs Realty', 'Not Yours Realty');
  ({ t, org, other } = h);
});
afterAll(() => h.close());

/** Uploads a PDF inline without extraction and waits until it is recorded. @returns its id */
async function addDocument(fileName: string, transactionId?: string, documentType?: string): Promise<string> {
  const r = await t.call('POST', '/api/v1/documents', {
    key: org.keys.draft,
    body: { fileName, contentBase64: pdfBytes(fileName).toString('base64'), extract: false, ...(transactionId ? { transactionId } : {}), ...(documentType ? { documentType } : {}) },
  });
  if (r.status !== 200) throw new Error(`${r.status} ${r.text}`);
  await waitFor(async () => ((await t.call('GET', `/api/v1/documents/${r.body.data.documentId}`, { key: org.keys.read })).body.data.uploadState === 'uploaded' ? true : undefined));
  return r.body.data.documentId;
}
const listDocs = async (transactionId: string, key = org.keys.read) => t.call('GET', `/api/v1/transactions/${transactionId}/documents`, { key });
const reorder = (transactionId: string, orderedDocumentIds: unknown) => t.call('POST', `/api/v1/transactions/${transactionId}/documents/reorder`, { key: org.keys.draft, body: { orderedDocumentIds } });

describe('list and reorder', () => {
  let dealId: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    dealId = (await createDeal(org, '3 Order St')).id;
    ids.contract = await addDocument('Resale contract 20-18.pdf', dealId);
    ids.survey = await addDocument('T-47 survey.pdf', dealId);
    ids.hoa = await addDocument('HOA addendum.pdf', dealId);
  });

  it('lists the deal’s documents in upload order, classified by file name', async () => {
    const r = await listDocs(dealId);
    expect(r.status).toBe(200);
    expect(r.body.data.map((d: any) => [d.id, d.documentType, d.order])).toEqual([
      [ids.contract, 'purchase_contract', 0],
      [ids.survey, 'survey', 1],
      [ids.hoa, 'hoa_addendum', 2],
    ]);
    expect(r.body.data[0]).not.toHaveProperty('s3Key');
    expect((await listDocs(dealId, other.keys.read)).status).toBe(404);
  });

  it('reorders when given exactly the deal’s documents', async () => {
    const r = await reorder(dealId, [ids.hoa, ids.contract, ids.survey]);
    expect(r.status).toBe(200);
    expect(r.body.data.map((d: any) => d.id)).toEqual([ids.hoa, ids.contract, ids.survey]);
    expect((await listDocs(dealId)).body.data.map((d: any) => [d.id, d.order])).toEqual([[ids.hoa, 0], [ids.contract, 1], [ids.survey, 2]]);
  });

  it('422 for a missing, unknown or repeated id, or null; 404 for another org’s deal', async () => {
    const stranger = randomUUID();
    const cases: [unknown, RegExp][] = [
      [[ids.hoa, ids.contract], new RegExp(`missing: ${ids.survey}`)],
      [[ids.hoa, ids.contract, ids.survey, stranger], new RegExp(`not documents of this transaction: ${stranger}`)],
      [[ids.hoa, ids.contract, ids.survey, ids.hoa], /listed more than once/],
      [null, /is required/],
      [['nope'], /must be a uuid/],
    ];
    for (const [list, message] of cases) {
      const r = await reorder(dealId, list);
      expect(r.status).toBe(422);
      expect(Object.keys(r.body.error.fields)[0]).toMatch(/^orderedDocumentIds/);
      expect(Object.values(r.body.error.fields)[0]).toMatch(message);
    }
    expect((await listDocs(dealId)).body.data.map((d: any) => d.id)).toEqual([ids.hoa, ids.contract, ids.survey]);
    const foreign = await createDeal(other, '4 Foreign St');
    expect((await reorder(foreign.id, [])).status).toBe(404);
  });
});

describe('update and delete', () => {
  it('renames, reclassifies and attaches to a deal (appended last, with document.uploaded)', async () => {
    const deal = await createDeal(org, '5 Patch St');
    await addDocument('first.pdf', deal.id);
    const id = await addDocument('scan0001.pdf');
    expect((await t.call('GET', `/api/v1/documents/${id}`, { key: org.keys.read })).body.data).toMatchObject({ documentType: 'other', documentTypeSource: 'filename', transactionId: null });
    const r = await t.call('PATCH', `/api/v1/documents/${id}`, { key: org.keys.draft, body: { name: 'Seller disclosure.pdf', documentType: "Seller's Disclosure", transactionId: deal.id } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id, name: 'Seller disclosure.pdf', documentType: 'sellers_disclosure', documentTypeSource: 'declared', transactionId: deal.id, order: 1 });
    expect((await listDocs(deal.id)).body.data.map((d: any) => d.id).at(-1)).toBe(id);
    expect((await eventsFor(org.orgId, 'document.uploaded', deal.id)).map((e) => e.data.documentId)).toContain(id);

    const bad = await t.call('PATCH', `/api/v1/documents/${id}`, { key: org.keys.draft, body: { documentType: 'grocery list' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields.documentType).toMatch(/^must name a document type: purchase_contract, /);
    expect((await t.call('PATCH', `/api/v1/documents/${id}`, { key: org.keys.draft, body: {} })).status).toBe(422);
    const foreign = await createDeal(other, '6 Foreign St');
    const attach = await t.call('PATCH', `/api/v1/documents/${id}`, { key: org.keys.draft, body: { transactionId: foreign.id } });
    expect(attach.status).toBe(404);
    expect((await t.call('GET', `/api/v1/documents/${id}`, { key: org.keys.read })).body.data.transactionId).toBe(deal.id);
  });

  it('deletes the document and its file, emitting document.deleted once', async () => {
    const deal = await createDeal(org, '7 Delete St');
    const id = await addDocument('Title commitment.pdf', deal.id);
    const key = `org/${org.orgId}/documents/${id}/Title_commitment.pdf`;
    expect(await headObject(key)).toMatchObject({ size: expect.any(Number) });
    const r = await t.call('DELETE', `/api/v1/documents/${id}`, { key: org.keys.actions });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ documentId: id, deleted: true });
    expect(await headObject(key)).toBeUndefined();
    expect((await t.call('GET', `/api/v1/documents/${id}`, { key: org.keys.read })).status).toBe(404);
    expect((await listDocs(deal.id)).body.data).toEqual([]);
    const deleted = (await outboxEvents(org.orgId, 'document.deleted')).filter((e) => e.data.documentId === id);
    expect(deleted).toHaveLength(1);
    expect(deleted[0].data).toMatchObject({ documentId: id, transactionId: deal.id, name: 'Title commitment.pdf', documentType: 'title_commitment' });
    expect((await t.call('DELETE', `/api/v1/documents/${id}`, { key: org.keys.actions })).status).toBe(404);
    expect((await t.call('DELETE', `/api/v1/documents/${id}`, { key: org.keys.draft })).status).toBe(403);
  });
});

describe('GET /transactions/{transactionId}/missing-documents', () => {
  const missing = async (id: string) => {
    const r = await t.call('GET', `/api/v1/transactions/${id}/missing-documents`, { key: org.keys.read });
    expect(r.status).toBe(200);
    return r.body;
  };

  it('without an applied contract: the purchase baseline minus what is uploaded', async () => {
    const deal = await createDeal(org, '8 Baseline St');
    const body = await missing(deal.id);
    expect(body.data.map((m: any) => m.documentType)).toEqual(['purchase_contract', 'earnest_money_receipt', 'sellers_disclosure', 'title_commitment', 'survey']);
    expect(body.data[0]).toEqual({ documentType: 'purchase_contract', label: 'Executed purchase contract', reason: 'required for every purchase' });
    expect(body.present).toEqual([]);
    expect(body.basis).toBeNull();
    const receipt = await addDocument('EM receipt.pdf', deal.id, 'Earnest Money Receipt');
    const after = await missing(deal.id);
    expect(after.data.map((m: any) => m.documentType)).not.toContain('earnest_money_receipt');
    expect(after.present).toEqual([{ documentType: 'earnest_money_receipt', label: 'Earnest money receipt', documentIds: [receipt] }]);
    expect((await t.call('GET', `/api/v1/transactions/${deal.id}/missing-documents`, { key: other.keys.read })).status).toBe(404);
  });

  it('a financed contract with an HOA adds the financing and HOA addenda; a cash one without HOA does not', async () => {
    const { jobId, documentId } = await uploadAndComplete(t, org);
    const deal = (await t.call('POST', '/api/v1/transactions', { key: org.keys.actions, body: { extractionJobId: jobId } })).body.data;
    const financed = await missing(deal.id);
    expect(financed.data.map((m: any) => m.documentType)).toEqual(['earnest_money_receipt', 'sellers_disclosure', 'financing_addendum', 'hoa_addendum', 'title_commitment', 'survey']);
    expect(financed.data.find((m: any) => m.documentType === 'financing_addendum').reason).toContain('third_party');
    expect(financed.present).toEqual([{ documentType: 'purchase_contract', label: 'Executed purchase contract', documentIds: [documentId] }]);
    expect(financed.basis).toMatchObject({ extractionJobId: jobId, financingType: 'third_party', hoa: true });

    const cash = await uploadAndComplete(t, org, extractionResult({ ...TREC_VALUES, propertyStreet: '9 Cash Ct', financingType: 'cash', salesPriceFinanced: 0, hoa: false, financingDeadlineDays: null }));
    const cashDeal = (await t.call('POST', '/api/v1/transactions', { key: org.keys.actions, body: { extractionJobId: cash.jobId } })).body.data;
    expect((await missing(cashDeal.id)).data.map((m: any) => m.documentType)).toEqual(['earnest_money_receipt', 'sellers_disclosure', 'title_commitment', 'survey']);
  });
});

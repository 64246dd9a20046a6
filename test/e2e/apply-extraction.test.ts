/**
 * `POST /api/v1/transactions` (ApplyExtraction) over HTTP: a completed job becomes a deal with key dates,
 * contacts with roles and starter tasks linked to key dates, in one transaction with its events; applying
 * twice (or concurrently) is a 422 naming `extractionJobId` and the first deal; overrides are validated per field and change
 * the address and dates; attaching to an existing deal upserts its key dates; other organizations' jobs
 * and deals are 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { TestApi, TestOrg } from '../support/http-client.ts';
import { createDeal, eventsFor, outboxEvents, postTask, putKeyDates } from './deal-fixtures.ts';
import { extractionResult, startDocumentsHarness, TREC_VALUES, uploadAndComplete, type DocumentsHarness, type TestS3 } from './documents-fixtures.ts';
import { createJob } from '#db/extraction-jobs';

let h: DocumentsHarness;
let t: TestApi;
let s3: TestS3;
let org: TestOrg;
let other: TestOrg;
beforeAll(async () => {
  h = await startDocumentsHarness('Apply Realty', 'Elsewhere Realty');
  ({ t, s3, org, other } = h);
});
afterAll(() => h.close());

const apply = (body: Record<string, unknown>, key = org.keys.actions) => t.call('POST', '/api/v1/transactions', { key, body });

describe('applying a completed extraction creates the deal', () => {
  let deal: any;
  let jobId: string;
  let documentId: string;
  beforeAll(async () => {
    ({ jobId, documentId } = await uploadAndComplete(t, org));
    const r = await apply({ extractionJobId: jobId });
    expect(r.status, r.text).toBe(200);
    deal = r.body.data;
  });

  it('answers with the deal as GET /transactions/{id} returns it', async () => {
    expect(deal).toMatchObject({
      address: '4821 Bluebonnet Trl, Austin, TX 78745',
      propertyAddress: { street: '4821 Bluebonnet Trl', city: 'Austin', state: 'TX', zip: '78745' },
      transactionType: 'Purchase',
      side: 'Buyer',
      status: 'Under Contract',
    });
    const read = await t.call('GET', `/api/v1/transactions/${deal.id}`, { key: org.keys.read });
    expect(read.body.data).toEqual(deal);
  });

  it('has the key dates of the contract', () => {
    const dates = Object.fromEntries(deal.keyDates.map((k: any) => [k.keyDateType, k.dateValue]));
    expect(dates).toEqual(Object.fromEntries(extractionResult().keyDates.map((k) => [k.keyDateType, k.dateValue])));
    expect(dates).toMatchObject({ ClosingDate: '2030-04-15', InspectionDeadline: '2030-03-09', EarnestMoneyDue: '2030-03-05', FinancingDeadline: '2030-03-23' });
    expect(deal.keyDates.find((k: any) => k.keyDateType === 'InspectionDeadline')).toMatchObject({ source: 'extraction', label: expect.any(String), calculationNotes: expect.stringContaining('TREC 20-18 ¶5B') });
  });

  it('has the parties as contacts with their roles', () => {
    expect(deal.contacts.map((c: any) => [c.role, c.name, c.company, c.isPrimary])).toEqual([
      ['Buyer', 'Maria Delgado', null, true],
      ['Buyer', 'Luis Delgado', null, false],
      ['Seller', 'Robert Chen', null, true],
      ["Buyer's Agent", 'Jenna Park', 'Lone Star Realty', true],
      ['Listing Agent', 'Tom Reyes', 'Capitol Homes', true],
      ['Escrow Officer / Title', 'Hill Country Title', 'Hill Country Title', true],
    ]);
  });

  it('has starter tasks that follow their key dates', async () => {
    const byTitle = Object.fromEntries(deal.tasks.map((x: any) => [x.title, x]));
    expect(byTitle['Schedule inspections before the option period ends']).toMatchObject({ linkedMilestoneName: 'InspectionDeadline', dueOffsetDays: -2, dueDate: '2030-03-07', status: 'open' });
    expect(byTitle['Confirm closing appointment with escrow']).toMatchObject({ linkedMilestoneName: 'ClosingDate', dueOffsetDays: -2, dueDate: '2030-04-13' });
    expect(byTitle['Confirm earnest money and option fee receipted by escrow']).toMatchObject({ linkedMilestoneName: 'EarnestMoneyDue', dueDate: '2030-03-05' });
    expect(byTitle['Order survey or confirm existing survey']).toMatchObject({ linkedMilestoneName: 'SurveyDeadline' });
    expect(byTitle['Review title commitment and send objections']).toMatchObject({ linkedMilestoneName: 'TitleObjectionDeadline' });
    expect(deal.tasks).toHaveLength(6);
    // They move with the date: closing moves 7 days → the task moves too.
    await putKeyDates(t, org.keys.draft, deal.id, [{ keyDateType: 'ClosingDate', dateValue: '2030-04-22' }]);
    const moved = (await t.call('GET', `/api/v1/transactions/${deal.id}`, { key: org.keys.read })).body.data.tasks.find((x: any) => x.linkedMilestoneName === 'ClosingDate');
    expect(moved.dueDate).toBe('2030-04-20');
  });

  it('emitted transaction.created, key_date.updated, contact.created and task.created in the same write', async () => {
    const [created] = await eventsFor(org.orgId, 'transaction.created', deal.id);
    expect(created.data).toMatchObject({ transactionId: deal.id, status: 'Under Contract' });
    const kd = (await eventsFor(org.orgId, 'key_date.updated', deal.id)).filter((e) => e.timestamp === created.timestamp);
    expect(kd).toHaveLength(7);
    expect((await eventsFor(org.orgId, 'contact.created', deal.id)).map((e) => e.data.role).sort()).toEqual(
      ['Buyer', 'Buyer', "Buyer's Agent", 'Escrow Officer / Title', 'Listing Agent', 'Seller'],
    );
    expect(await eventsFor(org.orgId, 'task.created', deal.id)).toHaveLength(6);
  });

  it('attaches the source document to the deal and records the job as applied', async () => {
    const docs = await t.call('GET', `/api/v1/transactions/${deal.id}/documents`, { key: org.keys.read });
    expect(docs.body.data.map((d: any) => [d.id, d.documentType])).toEqual([[documentId, 'purchase_contract']]);
    expect((await t.call('GET', `/api/v1/extractions/${jobId}`, { key: org.keys.read })).body.data.appliedTransactionId).toBe(deal.id);
    const [uploaded] = await eventsFor(org.orgId, 'document.uploaded', deal.id);
    expect(uploaded.data).toMatchObject({ documentId, transactionId: deal.id });
  });

  it('applying the job again is a 422 naming extractionJobId and the first transaction (not (IK): no 409), and changes nothing', async () => {
    const before = (await outboxEvents(org.orgId)).length;
    const again = await apply({ extractionJobId: jobId });
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('validation_error');
    expect(again.body.error.fields).toEqual({ extractionJobId: `was already applied to transaction ${deal.id}` });
    expect(again.body.error.message).toContain(deal.id);
    const onExisting = await apply({ extractionJobId: jobId, transactionId: deal.id });
    expect(onExisting.status).toBe(422);
    expect((await outboxEvents(org.orgId)).length).toBe(before);
  });
});

describe('apply rules', () => {
  it('422 "extraction not completed" on extractionJobId for a queued job; 404 for an unknown one', async () => {
    const job = await createJob(org.orgId, { documentId: randomUUID(), transactionId: null, bucket: s3.bucket, key: 'org/x/documents/y/z.pdf' }, new Date());
    const r = await apply({ extractionJobId: job.jobId });
    expect(r.status).toBe(422);
    expect(r.body.error.fields.extractionJobId).toContain('extraction not completed');
    expect((await apply({ extractionJobId: randomUUID() })).status).toBe(404);
  });

  it('overrides change the address and the dates computed from them; type and side are taken', async () => {
    const { jobId } = await uploadAndComplete(t, org);
    const r = await apply({
      extractionJobId: jobId,
      transactionType: 'Sale',
      side: 'Seller',
      overrides: { propertyStreet: '4823 Bluebonnet Trail', propertyZip: '78746', closingDate: '2030-05-01', optionPeriodDays: 10, buyers: ['Ana Ruiz'] },
    });
    expect(r.status, r.text).toBe(200);
    const d = r.body.data;
    expect(d).toMatchObject({ address: '4823 Bluebonnet Trail, Austin, TX 78746', transactionType: 'Sale', side: 'Seller' });
    const dates = Object.fromEntries(d.keyDates.map((k: any) => [k.keyDateType, k.dateValue]));
    expect(dates).toMatchObject({ ClosingDate: '2030-05-01', InspectionDeadline: '2030-03-12' });
    expect(d.contacts.filter((c: any) => c.role === 'Buyer').map((c: any) => c.name)).toEqual(['Ana Ruiz']);
    expect(d.tasks.find((x: any) => x.linkedMilestoneName === 'ClosingDate').dueDate).toBe('2030-04-29');
  });

  it('validates overrides per field (422 fields.overrides.<name>) and writes nothing', async () => {
    const { jobId } = await uploadAndComplete(t, org);
    const r = await apply({ extractionJobId: jobId, overrides: { closingDate: '2030-02-30', optionPeriodDays: -1, earnestMoney: 'lots', hoa: 'yes', favoriteColor: 'blue', buyers: 'Ana' } });
    expect(r.status).toBe(422);
    expect(r.body.error.fields).toEqual({
      'overrides.closingDate': 'must be a calendar date YYYY-MM-DD or null',
      'overrides.optionPeriodDays': 'must be a whole number of days from 0 to 365, or null',
      'overrides.earnestMoney': 'must be an amount in dollars (a number ≥ 0) or null',
      'overrides.hoa': 'must be true, false or null',
      'overrides.favoriteColor': 'is not a contract field',
      'overrides.buyers': 'must be an array of at most 10 non-empty strings, or null',
    });
    const noStreet = await apply({ extractionJobId: jobId, overrides: { propertyStreet: null } });
    expect(noStreet.status).toBe(422);
    expect(Object.keys(noStreet.body.error.fields)).toEqual(['overrides.propertyStreet']);
    expect((await t.call('GET', `/api/v1/extractions/${jobId}`, { key: org.keys.read })).body.data.appliedTransactionId).toBeNull();
  });

  it('a result too large for one transaction is a clear 422, not a partial write', async () => {
    const { jobId } = await uploadAndComplete(t, org);
    const names = (p: string) => Array.from({ length: 10 }, (_, i) => `${p} Person${i}`);
    const r = await apply({ extractionJobId: jobId, overrides: { buyers: names('Buyer'), sellers: names('Seller') } });
    expect(r.status).toBe(422);
    expect(r.body.error.message).toMatch(/needs \d+ writes, more than the 100/);
  });

  it('attaches to an existing deal: key dates upserted, its linked tasks moved, nothing duplicated', async () => {
    const existing = await createDeal(org, '4821 Bluebonnet Trl', { status: 'Under Contract' });
    await putKeyDates(t, org.keys.draft, existing.id, [{ keyDateType: 'ClosingDate', dateValue: '2030-04-30' }]);
    const own = await postTask(t, org.keys.draft, existing.id, { title: 'Book movers', linkedMilestoneName: 'ClosingDate', dueDate: '2030-04-28' });
    const { jobId } = await uploadAndComplete(t, org, extractionResult(), { transactionId: existing.id });
    const r = await apply({ extractionJobId: jobId, transactionId: existing.id });
    expect(r.status, r.text).toBe(200);
    const d = r.body.data;
    expect(d).toMatchObject({ id: existing.id, address: '4821 Bluebonnet Trl, Austin, TX 78704', status: 'Under Contract' });
    expect(d.keyDates.find((k: any) => k.keyDateType === 'ClosingDate').dateValue).toBe('2030-04-15');
    expect(d.tasks.find((x: any) => x.id === own.id).dueDate).toBe('2030-04-13');
    expect(d.contacts).toHaveLength(6);
    expect(d.tasks).toHaveLength(7);
    const [kd] = (await eventsFor(org.orgId, 'key_date.updated', existing.id)).filter((e) => e.data.keyDateType === 'ClosingDate' && e.data.previousValue === '2030-04-30');
    expect(kd.data.dateValue).toBe('2030-04-15');
    const missingDeal = await apply({ extractionJobId: (await uploadAndComplete(t, org)).jobId, transactionId: randomUUID() });
    expect(missingDeal.status).toBe(404);
  });

  it("another organization's job or deal is 404", async () => {
    const { jobId } = await uploadAndComplete(t, org);
    const theirs = await apply({ extractionJobId: jobId }, other.keys.actions);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toEqual({ code: 'not_found', message: 'Extraction job not found.' });
    const foreignDeal = await createDeal(other, '9 Foreign Rd');
    expect((await apply({ extractionJobId: jobId, transactionId: foreignDeal.id })).status).toBe(404);
    expect((await t.call('GET', `/api/v1/extractions/${jobId}`, { key: org.keys.read })).body.data.appliedTransactionId).toBeNull();
  });

  it('of two concurrent applies of one job, one creates the deal and the other gets 422 naming it', async () => {
    const { jobId } = await uploadAndComplete(t, org, extractionResult({ ...TREC_VALUES, propertyStreet: '77 Race Ct' }));
    const [a, b] = await Promise.all([apply({ extractionJobId: jobId }), apply({ extractionJobId: jobId })]);
    expect([a.status, b.status].sort()).toEqual([200, 422]);
    const winner = a.status === 200 ? a : b;
    const loser = a.status === 200 ? b : a;
    expect(loser.body.error.message).toContain(winner.body.data.id);
    const deals = await t.call('GET', '/api/v1/transactions?q=77%20race', { key: org.keys.read });
    expect(deals.body.data.map((x: any) => x.id)).toEqual([winner.body.data.id]);
  });
});

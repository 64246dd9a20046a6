/**
 * Proposals over HTTP: a later extraction of a deal's document (an amendment with another closing date) proposes
 * the changed key dates with the extraction's citations; list filters and pages; get shows evidence and
 * staleness; the payload is edited within what was proposed; approving writes through the manual key-date rules
 * (linked tasks move, `key_date.updated`) and marks it approved once; rejecting records the reason and leaves the
 * deal; a stale proposal (the date moved since) is refused with 422 and changes nothing. The proposals here come
 * from `proposeFromExtraction`, the function the pipeline's ExtractFields step calls (proposals-sources.test.ts
 * runs the real pipeline).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { proposeFromExtraction } from '#use-cases/proposals';
import type { TestApi, TestOrg } from '../support/http-client.ts';
import { eventsFor } from './deal-fixtures.ts';
import { extractionResult, startDocumentsHarness, TREC_VALUES, uploadAndComplete, type DocumentsHarness } from './documents-fixtures.ts';

let h: DocumentsHarness;
let t: TestApi;
let org: TestOrg;
let other: TestOrg;

const call = (method: string, path: string, key: string, body?: unknown) => t.call(method, path, { key, body });
const getDeal = async (id: string) => (await call('GET', `/api/v1/transactions/${id}`, org.keys.read)).body.data;
const dateOf = (deal: any, type: string) => deal.keyDates.find((k: any) => k.keyDateType === type)?.dateValue;

/** A deal from the contract, then an amendment uploaded to it whose extraction proposes. */
async function dealWithAmendment(street: string, amended: Partial<typeof TREC_VALUES>) {
  const { jobId } = await uploadAndComplete(t, org, extractionResult({ ...TREC_VALUES, propertyStreet: street }));
  const deal = (await call('POST', '/api/v1/transactions', org.keys.actions, { extractionJobId: jobId })).body.data;
  const amendment = await uploadAndComplete(t, org, extractionResult({ ...TREC_VALUES, propertyStreet: street, ...amended }), { fileName: 'Amendment.pdf', transactionId: deal.id });
  const proposal = await proposeFromExtraction(org.orgId, amendment.jobId, new Date());
  return { deal, amendment, proposal: proposal! };
}

beforeAll(async () => {
  h = await startDocumentsHarness('Proposal Realty', 'Elsewhere Realty');
  ({ t, org, other } = h);
});
afterAll(() => h.close());

describe('a proposal from an amendment', () => {
  let deal: any;
  let amendment: { jobId: string; documentId: string };
  let id: string;
  beforeAll(async () => {
    const made = await dealWithAmendment('100 Amend Ave', { closingDate: '2030-04-29' });
    ({ deal, amendment } = made);
    id = made.proposal.id;
  });

  it('is pending, names the change and cites the extraction', async () => {
    const r = await call('GET', `/api/v1/proposals/${id}`, org.keys.read);
    expect(r.status).toBe(200);
    const p = r.body.data;
    expect(p).toMatchObject({ transactionId: deal.id, status: 'pending', kind: 'key_date_change', stale: false, source: { type: 'extraction', jobId: amendment.jobId, documentId: amendment.documentId } });
    expect(p.parameters.keyDates).toEqual([{ keyDateType: 'ClosingDate', dateValue: '2030-04-29' }]);
    expect(p.basis.keyDates).toEqual({ ClosingDate: '2030-04-15' });
    expect(p.summary).toBe('ClosingDate 2030-04-15 → 2030-04-29');
    expect(p.evidence).toEqual([expect.objectContaining({ kind: 'document_citation', keyDateType: 'ClosingDate', field: 'closingDate', text: '2030-04-29', page: 1, jobId: amendment.jobId, documentId: amendment.documentId })]);
  });

  it('a re-upload of the same contract proposes nothing', async () => {
    const again = await uploadAndComplete(t, org, extractionResult({ ...TREC_VALUES, propertyStreet: '100 Amend Ave' }), { transactionId: deal.id });
    expect(await proposeFromExtraction(org.orgId, again.jobId, new Date())).toBeNull();
    // A retried step makes no second proposal either.
    expect(await proposeFromExtraction(org.orgId, amendment.jobId, new Date())).toBeNull();
  });

  it('is listed as pending, filtered by deal and status, paged', async () => {
    const list = await call('GET', `/api/v1/proposals?transactionId=${deal.id}`, org.keys.read);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ limit: 25, offset: 0, hasMore: false });
    expect(list.body.data.map((p: any) => p.id)).toEqual([id]);
    expect((await call('GET', `/api/v1/proposals?transactionId=${deal.id}&status=approved`, org.keys.read)).body.data).toEqual([]);
    const bad = await call('GET', '/api/v1/proposals?status=maybe', org.keys.read);
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields).toHaveProperty('status');
    expect((await call('GET', `/api/v1/proposals?transactionId=${randomUUID()}`, org.keys.read)).status).toBe(404);
    expect((await call('GET', '/api/v1/proposals?status=all', other.keys.read)).body.data).toEqual([]);
  });

  it('the payload is edited within the proposed key dates', async () => {
    const wrong = await call('PUT', `/api/v1/proposals/${id}/payload`, org.keys.actions, { parameters: { keyDates: [{ keyDateType: 'InspectionDeadline', dateValue: '2030-13-01' }] } });
    expect(wrong.status).toBe(422);
    expect(Object.keys(wrong.body.error.fields).sort()).toEqual(['parameters.keyDates[0].dateValue', 'parameters.keyDates[0].keyDateType']);
    expect((await call('PUT', `/api/v1/proposals/${id}/payload`, org.keys.actions, { parameters: [] })).status).toBe(422);
    expect((await call('PUT', `/api/v1/proposals/${id}/payload`, org.keys.draft, { parameters: { keyDates: [] } })).status).toBe(403);

    const r = await call('PUT', `/api/v1/proposals/${id}/payload`, org.keys.actions, { parameters: { keyDates: [{ keyDateType: 'ClosingDate', dateValue: '2030-04-30' }] } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ status: 'pending', parameters: { keyDates: [{ keyDateType: 'ClosingDate', dateValue: '2030-04-30' }] }, originalParameters: { keyDates: [{ dateValue: '2030-04-29' }] } });
    expect(r.body.data.editedAt).not.toBeNull();
  });

  it('approving changes the deal through the manual key-date rules: linked tasks move, key_date.updated', async () => {
    const before = await getDeal(deal.id);
    const closingTasks = before.tasks.filter((x: any) => x.linkedMilestoneName === 'ClosingDate');
    expect(closingTasks.length).toBeGreaterThan(0);
    const r = await call('POST', `/api/v1/proposals/${id}/approve`, org.keys.actions);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ status: 'approved', stale: false });
    expect(r.body.data.appliedKeyDates).toEqual([expect.objectContaining({ keyDateType: 'ClosingDate', dateValue: '2030-04-30', source: 'proposal' })]);
    expect(r.body.data.decidedAt).not.toBeNull();

    const after = await getDeal(deal.id);
    expect(dateOf(after, 'ClosingDate')).toBe('2030-04-30');
    expect(after.version).toBe(before.version + 1);
    for (const task of closingTasks) {
      const moved = after.tasks.find((x: any) => x.id === task.id);
      expect(moved.dueDate).toBe(new Date(Date.parse('2030-04-30T00:00:00Z') + task.dueOffsetDays * 86_400_000).toISOString().slice(0, 10));
    }
    const events = await eventsFor(org.orgId, 'key_date.updated', deal.id);
    expect(events.at(-1)!.data).toMatchObject({ keyDateType: 'ClosingDate', dateValue: '2030-04-30', previousValue: '2030-04-15' });
  });

  it('a decided proposal cannot be approved, rejected or edited again (422 naming the proposal id: these are not (IK))', async () => {
    for (const [method, path, body] of [
      ['POST', 'approve', undefined],
      ['POST', 'reject', { reason: 'late' }],
      ['PUT', 'payload', { parameters: { keyDates: [{ keyDateType: 'ClosingDate', dateValue: '2030-05-01' }] } }],
    ] as const) {
      const r = await call(method, `/api/v1/proposals/${id}/${path}`, org.keys.actions, body);
      expect(r.status, path).toBe(422);
      expect(r.body.error.code).toBe('validation_error');
      expect(r.body.error.fields).toEqual({ id: 'proposal is already approved; only a pending proposal can change' });
      expect(r.body.error.message).toContain('already approved');
    }
    expect(dateOf(await getDeal(deal.id), 'ClosingDate')).toBe('2030-04-30');
  });

  it("is 404 to another organization and for an unknown id", async () => {
    expect((await call('GET', `/api/v1/proposals/${id}`, other.keys.read)).status).toBe(404);
    expect((await call('POST', `/api/v1/proposals/${randomUUID()}/approve`, org.keys.actions)).status).toBe(404);
    expect((await call('POST', `/api/v1/proposals/${randomUUID()}/reject`, other.keys.actions, { reason: null })).status).toBe(404);
  });
});

describe('stale and rejected proposals', () => {
  it('a proposal whose key date moved since is shown stale and refused with 422 on its id; the deal keeps the manual date', async () => {
    const { deal, proposal } = await dealWithAmendment('200 Stale St', { closingDate: '2030-05-06' });
    await call('PATCH', `/api/v1/transactions/${deal.id}/key-dates/ClosingDate`, org.keys.draft, { newValue: '2030-04-20' });
    const got = (await call('GET', `/api/v1/proposals/${proposal.id}`, org.keys.read)).body.data;
    expect(got).toMatchObject({ status: 'pending', stale: true, staleReasons: ['ClosingDate is now 2030-04-20 (was 2030-04-15 when proposed)'] });
    const before = await getDeal(deal.id);
    const r = await call('POST', `/api/v1/proposals/${proposal.id}/approve`, org.keys.actions);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_error');
    expect(r.body.error.fields.id).toMatch(/stale.*ClosingDate is now 2030-04-20/);
    expect(r.body.error.message).toMatch(/stale.*ClosingDate is now 2030-04-20/);
    const after = await getDeal(deal.id);
    expect(dateOf(after, 'ClosingDate')).toBe('2030-04-20');
    expect(after.version).toBe(before.version);
    expect((await call('GET', `/api/v1/proposals/${proposal.id}`, org.keys.read)).body.data.status).toBe('pending');
  });

  it('rejecting records the reason and leaves the deal untouched', async () => {
    const { deal, proposal } = await dealWithAmendment('300 Reject Rd', { closingDate: '2030-05-13', effectiveDate: '2030-03-03' });
    expect(proposal.parameters.keyDates.map((k) => k.keyDateType)).toEqual(expect.arrayContaining(['ClosingDate', 'InspectionDeadline']));
    const before = await getDeal(deal.id);
    const r = await call('POST', `/api/v1/proposals/${proposal.id}/reject`, org.keys.actions, { reason: '  The seller never signed the amendment.  ' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ status: 'rejected', rejectionReason: 'The seller never signed the amendment.', appliedKeyDates: null });
    expect((await getDeal(deal.id)).keyDates).toEqual(before.keyDates);
    const list = (await call('GET', `/api/v1/proposals?status=rejected&transactionId=${deal.id}`, org.keys.read)).body.data;
    expect(list.map((p: any) => p.id)).toEqual([proposal.id]);
    expect((await call('POST', `/api/v1/proposals/${proposal.id}/reject`, org.keys.read, { reason: null })).status).toBe(403);
  });
});

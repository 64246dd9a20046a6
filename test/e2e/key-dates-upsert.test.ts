/** POST /transactions/{id}/key-dates (bulk upsert) and GET .../key-dates, with key_date.updated events. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';
import { createDeal, eventsFor } from './deal-fixtures.ts';

let t: TestApi;
let org: TestOrg;
beforeAll(async () => {
  t = await startTestApi();
  org = await t.newOrg('Key Date Realty');
});
afterAll(() => t.close());

const upsert = (id: string, keyDates: unknown) => t.call('POST', `/api/v1/transactions/${id}/key-dates`, { key: org.keys.draft, body: { keyDates } });
const list = async (id: string) => {
  const r = await t.call('GET', `/api/v1/transactions/${id}/key-dates`, { key: org.keys.read });
  expect(r.status).toBe(200);
  return r.body.data as any[];
};
const kdEvents = (id: string) => eventsFor(org.orgId, 'key_date.updated', id);

describe('POST /transactions/{transactionId}/key-dates', () => {
  it('creates key dates and lists them soonest first', async () => {
    const deal = await createDeal(org, '1 Create St');
    const r = await upsert(deal.id, [
      { keyDateType: 'ClosingDate', dateValue: '2026-12-15' },
      { keyDateType: 'HOA_Docs_Due', dateValue: '2026-12-01', isCustom: true, label: 'HOA documents due' },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(2);
    expect(r.body.data[1]).toEqual({
      transactionId: deal.id,
      keyDateType: 'HOA_Docs_Due',
      dateValue: '2026-12-01',
      isCustom: true,
      label: 'HOA documents due',
      source: null,
      calculationNotes: null,
      completedAt: null,
      address: '1 Create St, Austin, TX 78704',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const listed = await list(deal.id);
    expect(listed.map((k) => [k.keyDateType, k.dateValue, k.isCustom])).toEqual([
      ['HOA_Docs_Due', '2026-12-01', true],
      ['ClosingDate', '2026-12-15', false],
    ]);
    const events = await kdEvents(deal.id);
    expect(events.map((e) => [e.data.keyDateType, e.data.dateValue, e.data.previousValue]).sort()).toEqual([
      ['ClosingDate', '2026-12-15', null],
      ['HOA_Docs_Due', '2026-12-01', null],
    ]);
    expect(events[0]).toMatchObject({ organizationId: org.orgId, userId: org.ownerUserId });
  });

  it('writing the same type again updates the one key date of that type', async () => {
    const deal = await createDeal(org, '2 Update St');
    const [first] = (await upsert(deal.id, [{ keyDateType: 'ClosingDate', dateValue: '2026-12-15', label: 'Close' }])).body.data;
    const r = await upsert(deal.id, [{ keyDateType: 'ClosingDate', dateValue: '2026-12-20' }]);
    expect(r.status).toBe(200);
    expect(r.body.data[0]).toMatchObject({ keyDateType: 'ClosingDate', dateValue: '2026-12-20', label: 'Close', createdAt: first.createdAt });
    const listed = await list(deal.id);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ keyDateType: 'ClosingDate', dateValue: '2026-12-20' });
    const events = await kdEvents(deal.id);
    expect(events).toHaveLength(2);
    expect(events.find((e) => e.data.dateValue === '2026-12-20')!.data.previousValue).toBe('2026-12-15');
  });

  it('rewriting unchanged values emits no event; only the changed entry of a mixed write does', async () => {
    const deal = await createDeal(org, '3 Same St');
    await upsert(deal.id, [
      { keyDateType: 'ClosingDate', dateValue: '2026-12-15' },
      { keyDateType: 'FinancingDeadline', dateValue: '2026-12-05' },
    ]);
    expect(await kdEvents(deal.id)).toHaveLength(2);
    const same = await upsert(deal.id, [{ keyDateType: 'ClosingDate', dateValue: '2026-12-15' }]);
    expect(same.status).toBe(200);
    expect(same.body.data[0].dateValue).toBe('2026-12-15');
    expect(await kdEvents(deal.id)).toHaveLength(2);
    await upsert(deal.id, [
      { keyDateType: 'ClosingDate', dateValue: '2026-12-15' },
      { keyDateType: 'FinancingDeadline', dateValue: '2026-12-08' },
    ]);
    const events = await kdEvents(deal.id);
    expect(events).toHaveLength(3);
    expect(events.filter((e) => e.data.keyDateType === 'ClosingDate')).toHaveLength(1);
  });

  it('the same type twice in one request is a 422 naming the duplicate, and nothing is written', async () => {
    const deal = await createDeal(org, '4 Dup St');
    const r = await upsert(deal.id, [
      { keyDateType: 'InspectionDeadline', dateValue: '2026-12-01' },
      { keyDateType: 'ClosingDate', dateValue: '2026-12-15' },
      { keyDateType: 'InspectionDeadline', dateValue: '2026-12-03' },
    ]);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_error');
    expect(r.body.error.fields).toEqual({ 'keyDates[2].keyDateType': expect.stringContaining('duplicates keyDates[0]') });
    expect(await list(deal.id)).toEqual([]);
    expect(await kdEvents(deal.id)).toEqual([]);
  });

  it('keeps the calendar-date part of a full ISO date-time, with no time-zone shift', async () => {
    const deal = await createDeal(org, '5 Iso St');
    const r = await upsert(deal.id, [
      { keyDateType: 'ClosingDate', dateValue: '2026-12-01T23:30:00-06:00' },
      { keyDateType: 'InspectionDeadline', dateValue: '2026-11-30T00:15:00Z' },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.data.map((k: any) => k.dateValue)).toEqual(['2026-12-01', '2026-11-30']);
    expect((await list(deal.id)).map((k) => k.dateValue)).toEqual(['2026-11-30', '2026-12-01']);
  });

  it('rejects impossible dates, bad type tokens and an empty list with 422, writing nothing', async () => {
    const deal = await createDeal(org, '6 Invalid St');
    const feb30 = await upsert(deal.id, [{ keyDateType: 'ClosingDate', dateValue: '2026-02-30' }]);
    expect(feb30.status).toBe(422);
    expect(feb30.body.error.fields).toEqual({ 'keyDates[0].dateValue': 'is not a real calendar date' });
    const text = await upsert(deal.id, [{ keyDateType: 'ClosingDate', dateValue: 'next friday' }]);
    expect(text.status).toBe(422);
    expect(Object.keys(text.body.error.fields)).toEqual(['keyDates[0].dateValue']);
    const token = await upsert(deal.id, [{ keyDateType: 'Closing Date', dateValue: '2026-12-01' }]);
    expect(token.status).toBe(422);
    expect(Object.keys(token.body.error.fields)).toEqual(['keyDates[0].keyDateType']);
    const empty = await upsert(deal.id, []);
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.error.fields)).toEqual(['keyDates']);
    expect(await list(deal.id)).toEqual([]);
  });

  it('refuses a type outside the vocabulary unless isCustom is true, and an unknown item field, writing nothing (issue 25)', async () => {
    const deal = await createDeal(org, '6b Typo St');
    const typo = await upsert(deal.id, [{ keyDateType: 'Closing', dateValue: '2026-12-01' }]);
    expect(typo.status).toBe(422);
    expect(typo.body.error.code).toBe('validation_error');
    expect(typo.body.error.fields).toEqual({ 'keyDates[0].keyDateType': expect.stringContaining('send isCustom: true') });
    const notCustom = await upsert(deal.id, [{ keyDateType: 'Closing', dateValue: '2026-12-01', isCustom: false }]);
    expect(notCustom.status).toBe(422);
    const extra = await upsert(deal.id, [{ keyDateType: 'ClosingDate', dateValue: '2026-12-01', date: '2026-12-02' }]);
    expect(extra.status).toBe(422);
    expect(extra.body.error.fields).toEqual({ 'keyDates[0].date': 'is not a field of this body' });
    expect(await list(deal.id)).toEqual([]);
    expect(await kdEvents(deal.id)).toEqual([]);
    const custom = await upsert(deal.id, [{ keyDateType: 'Closing', dateValue: '2026-12-01', isCustom: true }]);
    expect(custom.status).toBe(200);
    expect((await list(deal.id)).map((k) => [k.keyDateType, k.isCustom])).toEqual([['Closing', true]]);
  });

  it('answers 404 for an unknown deal and 403 for a read-only key', async () => {
    const absent = await upsert(randomUUID(), [{ keyDateType: 'ClosingDate', dateValue: '2026-12-01' }]);
    expect(absent.status).toBe(404);
    expect(absent.body).toEqual({ error: { code: 'not_found', message: 'Transaction not found.' } });
    const deal = await createDeal(org, '7 Scope St');
    const ro = await t.call('POST', `/api/v1/transactions/${deal.id}/key-dates`, { key: org.keys.read, body: { keyDates: [{ keyDateType: 'ClosingDate', dateValue: '2026-12-01' }] } });
    expect(ro.status).toBe(403);
    expect(await list(deal.id)).toEqual([]);
  });
});

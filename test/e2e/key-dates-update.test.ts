/** PATCH /transactions/{id}/key-dates/{keyDateType}: the change, linked tasks moving with it, events. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';
import { createDeal, eventsFor, postTask, putKeyDates } from './deal-fixtures.ts';

let t: TestApi;
let org: TestOrg;
beforeAll(async () => {
  t = await startTestApi();
  org = await t.newOrg('Key Date Update Realty');
});
afterAll(() => t.close());

const patch = (id: string, type: string, body: unknown) => t.call('PATCH', `/api/v1/transactions/${id}/key-dates/${type}`, { key: org.keys.draft, body });
const getDeal = async (id: string) => (await t.call('GET', `/api/v1/transactions/${id}`, { key: org.keys.read })).body.data;
const kdEvents = (id: string) => eventsFor(org.orgId, 'key_date.updated', id);

describe('PATCH /transactions/{transactionId}/key-dates/{keyDateType}', () => {
  it('changes the date and moves linked open tasks by the same days, keeping their offsets', async () => {
    const deal = await createDeal(org, '1 Move St');
    await putKeyDates(t, org.keys.draft, deal.id, [
      { keyDateType: 'InspectionDeadline', dateValue: '2026-12-10' },
      { keyDateType: 'ClosingDate', dateValue: '2027-01-15' },
    ]);
    const onDate = await postTask(t, org.keys.draft, deal.id, { title: 'Inspection report', linkedMilestoneName: 'InspectionDeadline' });
    const offset = await postTask(t, org.keys.draft, deal.id, { title: 'Schedule inspector', linkedMilestoneName: 'InspectionDeadline', dueDate: '2026-12-07' });
    const done = await postTask(t, org.keys.draft, deal.id, { title: 'Pick inspector', linkedMilestoneName: 'InspectionDeadline', dueDate: '2026-12-01' });
    const otherDate = await postTask(t, org.keys.draft, deal.id, { title: 'Wire funds', linkedMilestoneName: 'ClosingDate' });
    const unlinked = await postTask(t, org.keys.draft, deal.id, { title: 'Call client', dueDate: '2026-12-10' });
    expect([onDate.dueDate, onDate.dueOffsetDays, offset.dueDate, offset.dueOffsetDays]).toEqual(['2026-12-10', 0, '2026-12-07', -3]);
    expect((await t.call('POST', `/api/v1/tasks/${done.id}/complete`, { key: org.keys.draft })).status).toBe(200);

    const r = await patch(deal.id, 'InspectionDeadline', { newValue: '2026-12-14', source: 'Amendment 1', calculationNotes: 'Extended 4 days' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ transactionId: deal.id, keyDateType: 'InspectionDeadline', dateValue: '2026-12-14', source: 'Amendment 1', calculationNotes: 'Extended 4 days' });

    const d = await getDeal(deal.id);
    expect(d.keyDates.find((k: any) => k.keyDateType === 'InspectionDeadline').dateValue).toBe('2026-12-14');
    const byId = Object.fromEntries(d.tasks.map((x: any) => [x.id, x]));
    expect(byId[onDate.id]).toMatchObject({ dueDate: '2026-12-14', dueOffsetDays: 0 });
    expect(byId[offset.id]).toMatchObject({ dueDate: '2026-12-11', dueOffsetDays: -3 });
    expect(byId[done.id]).toMatchObject({ status: 'completed', dueDate: '2026-12-01' });
    expect(byId[otherDate.id].dueDate).toBe('2027-01-15');
    expect(byId[unlinked.id].dueDate).toBe('2026-12-10');

    // The org-wide open-task list (GSI) agrees with the deal.
    const open = await t.call('GET', '/api/v1/tasks', { key: org.keys.read });
    const openDue = Object.fromEntries(open.body.data.map((x: any) => [x.id, x.dueDate]));
    expect(openDue[offset.id]).toBe('2026-12-11');
    expect(open.body.data.map((x: any) => x.id)).toEqual([unlinked.id, offset.id, onDate.id, otherDate.id]);

    // Moving it back earlier shifts the same tasks back.
    await patch(deal.id, 'InspectionDeadline', { newValue: '2026-12-04' });
    const back = Object.fromEntries((await getDeal(deal.id)).tasks.map((x: any) => [x.id, x.dueDate]));
    expect([back[onDate.id], back[offset.id]]).toEqual(['2026-12-04', '2026-12-01']);
  });

  it('accepts a date-time newValue as its calendar date and keeps the date when newValue is omitted', async () => {
    const deal = await createDeal(org, '2 Partial St');
    await putKeyDates(t, org.keys.draft, deal.id, [{ keyDateType: 'ClosingDate', dateValue: '2026-12-20' }]);
    const r = await patch(deal.id, 'ClosingDate', { newValue: '2026-12-22T20:00:00-08:00' });
    expect(r.body.data.dateValue).toBe('2026-12-22');
    const notes = await patch(deal.id, 'ClosingDate', { calculationNotes: 'Per lender' });
    expect(notes.status).toBe(200);
    expect(notes.body.data).toMatchObject({ dateValue: '2026-12-22', calculationNotes: 'Per lender' });
  });

  it('emits key_date.updated per change and none for an unchanged PATCH', async () => {
    const deal = await createDeal(org, '3 Event St');
    await putKeyDates(t, org.keys.draft, deal.id, [{ keyDateType: 'FinancingDeadline', dateValue: '2026-12-05' }]);
    await patch(deal.id, 'FinancingDeadline', { newValue: '2026-12-09' });
    let events = await kdEvents(deal.id);
    expect(events).toHaveLength(2);
    const moved = events.find((e) => e.data.dateValue === '2026-12-09')!;
    expect(moved).toMatchObject({ eventType: 'key_date.updated', organizationId: org.orgId, userId: org.ownerUserId });
    expect(moved.data).toEqual({ transactionId: deal.id, keyDateType: 'FinancingDeadline', dateValue: '2026-12-09', previousValue: '2026-12-05' });

    const same = await patch(deal.id, 'FinancingDeadline', { newValue: '2026-12-09' });
    expect(same.status).toBe(200);
    expect(same.body.data.dateValue).toBe('2026-12-09');
    events = await kdEvents(deal.id);
    expect(events).toHaveLength(2);
  });

  it("answers 404 for a type the deal doesn't have and for an unknown deal; 422 for a bad date", async () => {
    const deal = await createDeal(org, '4 Missing St');
    await putKeyDates(t, org.keys.draft, deal.id, [{ keyDateType: 'ClosingDate', dateValue: '2026-12-20' }]);
    const missing = await patch(deal.id, 'InspectionDeadline', { newValue: '2026-12-10' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: 'not_found', message: 'Key date not found.' } });
    const noDeal = await patch(randomUUID(), 'ClosingDate', { newValue: '2026-12-10' });
    expect(noDeal.status).toBe(404);
    expect(noDeal.body.error.code).toBe('not_found');
    const bad = await patch(deal.id, 'ClosingDate', { newValue: '2026-13-01' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields)).toEqual(['newValue']);
    const d = await getDeal(deal.id);
    expect(d.keyDates.map((k: any) => [k.keyDateType, k.dateValue])).toEqual([['ClosingDate', '2026-12-20']]);
  });
});

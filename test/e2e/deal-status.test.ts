/** GET /transaction-statuses and PATCH /transactions/{id}/status with its cascade and events. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setClock } from '#ports/clock';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';
import { createDeal, eventsFor, pinClock, postTask, putKeyDates } from './deal-fixtures.ts';

const NAMES = ['Prospect', 'Active Listing', 'Under Contract', 'Closing Extended', 'Clear to Close', 'Closed', 'Cancelled'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let t: TestApi;
let org: TestOrg;
beforeAll(async () => {
  t = await startTestApi();
  org = await t.newOrg('Status Realty');
});
afterAll(() => t.close());
afterEach(() => setClock());

const setStatus = (id: string, status: unknown) => t.call('PATCH', `/api/v1/transactions/${id}/status`, { key: org.keys.actions, body: { status } });
const get = async (id: string) => (await t.call('GET', `/api/v1/transactions/${id}`, { key: org.keys.read })).body.data;

describe('GET /transaction-statuses', () => {
  it('returns the default vocabulary in display order', async () => {
    const r = await t.call('GET', '/api/v1/transaction-statuses', { key: org.keys.read });
    expect(r.status).toBe(200);
    expect(r.body.data.map((s: any) => s.name)).toEqual(NAMES);
    expect(r.body.data.map((s: any) => s.order)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(r.body.data.find((s: any) => s.name === 'Closed')).toEqual({ name: 'Closed', category: 'closed', description: 'Funded and recorded.', order: 5, isTerminal: true });
    expect(r.body.data.filter((s: any) => s.isTerminal).map((s: any) => s.name)).toEqual(['Closed', 'Cancelled']);
  });
});

describe('PATCH /transactions/{transactionId}/status', () => {
  it('rejects a name outside the vocabulary with 422 listing the allowed names, changing nothing', async () => {
    const deal = await createDeal(org, '1 Unknown St');
    const r = await setStatus(deal.id, 'Pending Inspection');
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ error: { code: 'validation_error', message: 'The request is invalid.', fields: { status: `must be one of: ${NAMES.join(', ')}` } } });
    expect((await get(deal.id)).status).toBe('Prospect');
    expect(await eventsFor(org.orgId, 'transaction.status_changed', deal.id)).toEqual([]);
    const nul = await setStatus(deal.id, null);
    expect(nul.status).toBe(422);
    expect(Object.keys(nul.body.error.fields)).toEqual(['status']);
  });

  it('needs the actions scope', async () => {
    const deal = await createDeal(org, '2 Scope St');
    const r = await t.call('PATCH', `/api/v1/transactions/${deal.id}/status`, { key: org.keys.draft, body: { status: 'Closed' } });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('insufficient_scope');
    expect((await get(deal.id)).status).toBe('Prospect');
  });

  it("matches case-insensitively, stores the canonical name and runs Under Contract's cascade", async () => {
    const deal = await createDeal(org, '3 Contract Ln');
    await putKeyDates(t, org.keys.draft, deal.id, [{ keyDateType: 'InspectionDeadline', dateValue: '2026-07-20' }]);
    pinClock('2026-07-01T15:00:00Z');
    const r = await setStatus(deal.id, '  under CONTRACT ');
    expect(r.status).toBe(200);
    expect(r.body.changed).toBe(true);
    expect(r.body.data.status).toBe('Under Contract');
    expect(r.body.cascade.keyDatesShifted).toEqual([]);
    const created = r.body.cascade.tasksCreated.map((x: any) => [x.title, x.dueDate, x.linkedMilestoneName, x.dueOffsetDays]);
    expect(created).toEqual([
      ['Confirm earnest money and option fee delivered to escrow', '2026-07-04', null, null],
      ['Order title commitment', '2026-07-03', null, null],
      ['Schedule home inspection', '2026-07-17', 'InspectionDeadline', -3],
    ]);

    const d = await get(deal.id);
    expect(d.status).toBe('Under Contract');
    expect(d.tasks.map((x: any) => x.title)).toEqual(['Order title commitment', 'Confirm earnest money and option fee delivered to escrow', 'Schedule home inspection']);
    expect(d.recentActivity[0]).toMatchObject({ type: 'status_changed', summary: 'Status changed from Prospect to Under Contract' });
    const byStatus = await t.call('GET', `/api/v1/transactions?status=${encodeURIComponent('Under Contract')}`, { key: org.keys.read });
    expect(byStatus.body.data.map((x: any) => x.id)).toContain(deal.id);
    const oldStatus = await t.call('GET', '/api/v1/transactions?status=Prospect', { key: org.keys.read });
    expect(oldStatus.body.data.map((x: any) => x.id)).not.toContain(deal.id);

    expect((await eventsFor(org.orgId, 'task.created', deal.id)).length).toBe(3);
    const [changed] = await eventsFor(org.orgId, 'transaction.status_changed', deal.id);
    expect(changed.data).toEqual({ transactionId: deal.id, previousStatus: 'Prospect', status: 'Under Contract' });
  });

  it('without an InspectionDeadline the inspection task falls back to today + 5 days, unlinked', async () => {
    const deal = await createDeal(org, '4 Nodate Dr');
    pinClock('2026-07-01T15:00:00Z');
    const r = await setStatus(deal.id, 'Under Contract');
    const inspection = r.body.cascade.tasksCreated.find((x: any) => x.title === 'Schedule home inspection');
    expect(inspection).toMatchObject({ dueDate: '2026-07-06', linkedMilestoneName: null, dueOffsetDays: null });
  });

  it('Closing Extended moves ClosingDate +7 days and the tasks linked to it, leaving others', async () => {
    const deal = await createDeal(org, '5 Extend Ct');
    await putKeyDates(t, org.keys.draft, deal.id, [
      { keyDateType: 'ClosingDate', dateValue: '2026-09-01' },
      { keyDateType: 'InspectionDeadline', dateValue: '2026-08-10' },
    ]);
    const linked = await postTask(t, org.keys.draft, deal.id, { title: 'Final walkthrough', linkedMilestoneName: 'ClosingDate', dueDate: '2026-08-30' });
    const onDate = await postTask(t, org.keys.draft, deal.id, { title: 'Wire funds', linkedMilestoneName: 'ClosingDate' });
    const other = await postTask(t, org.keys.draft, deal.id, { title: 'Inspection', linkedMilestoneName: 'InspectionDeadline' });
    pinClock('2026-08-20T15:00:00Z');
    const r = await setStatus(deal.id, 'Closing Extended');
    expect(r.status).toBe(200);
    expect(r.body.cascade.keyDatesShifted).toEqual([{ keyDateType: 'ClosingDate', from: '2026-09-01', to: '2026-09-08' }]);
    expect(r.body.cascade.tasksCreated.map((x: any) => [x.title, x.dueDate])).toEqual([['Get the closing-extension amendment signed by all parties', '2026-08-21']]);
    // The response already shows the moved tasks (same as a fresh GET).
    const respDue = Object.fromEntries(r.body.data.tasks.map((x: any) => [x.id, x.dueDate]));
    expect([respDue[linked.id], respDue[onDate.id], respDue[other.id]]).toEqual(['2026-09-06', '2026-09-08', '2026-08-10']);
    expect(r.body.data.keyDates.find((k: any) => k.keyDateType === 'ClosingDate').dateValue).toBe('2026-09-08');

    const d = await get(deal.id);
    expect(d.keyDates.map((k: any) => [k.keyDateType, k.dateValue])).toEqual([
      ['InspectionDeadline', '2026-08-10'],
      ['ClosingDate', '2026-09-08'],
    ]);
    expect(d.keyDates[1]).toMatchObject({ source: 'status cascade' });
    const due = Object.fromEntries(d.tasks.map((x: any) => [x.id, x.dueDate]));
    expect(due[linked.id]).toBe('2026-09-06');
    expect(due[onDate.id]).toBe('2026-09-08');
    expect(due[other.id]).toBe('2026-08-10');
    const kd = await eventsFor(org.orgId, 'key_date.updated', deal.id);
    expect(kd.map((e) => e.data.dateValue).sort()).toEqual(['2026-08-10', '2026-09-01', '2026-09-08']);
    expect(kd.find((e) => e.data.dateValue === '2026-09-08')!.data).toEqual({ transactionId: deal.id, keyDateType: 'ClosingDate', dateValue: '2026-09-08', previousValue: '2026-09-01' });
  });

  it('entering Closed sets closedAt and emits status_changed and closed; repeating it changes nothing', async () => {
    const deal = await createDeal(org, '6 Closed Cir');
    pinClock('2026-10-02T18:30:00Z');
    const r = await setStatus(deal.id, 'Closed');
    setClock();
    expect(r.status).toBe(200);
    expect(r.body.changed).toBe(true);
    const closedAt = r.body.data.closedAt;
    expect(closedAt).toMatch(/^2026-10-02T18:30:/);
    expect((await get(deal.id))).toMatchObject({ status: 'Closed', closedAt });

    const changed = await eventsFor(org.orgId, 'transaction.status_changed', deal.id);
    const closed = await eventsFor(org.orgId, 'transaction.closed', deal.id);
    expect(changed).toHaveLength(1);
    expect(closed).toHaveLength(1);
    for (const e of [changed[0], closed[0]]) {
      expect(e.eventId).toMatch(UUID);
      expect(e.timestamp).toBe(closedAt);
      expect(e.organizationId).toBe(org.orgId);
      expect(e.userId).toBe(org.ownerUserId);
      expect(e.data.transactionId).toBe(deal.id);
    }
    expect(changed[0].eventId).not.toBe(closed[0].eventId);
    expect(closed[0]).toEqual({ eventType: 'transaction.closed', eventId: closed[0].eventId, timestamp: closedAt, organizationId: org.orgId, userId: org.ownerUserId, data: { transactionId: deal.id, status: 'Closed', closedAt } });
    expect(changed[0].data).toEqual({ transactionId: deal.id, previousStatus: 'Prospect', status: 'Closed' });

    const again = await setStatus(deal.id, 'closed');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ changed: false, cascade: { tasksCreated: [], keyDatesShifted: [] } });
    expect(again.body.data).toMatchObject({ status: 'Closed', closedAt });
    expect(await eventsFor(org.orgId, 'transaction.status_changed', deal.id)).toHaveLength(1);
    expect(await eventsFor(org.orgId, 'transaction.closed', deal.id)).toHaveLength(1);
    expect((await get(deal.id)).tasks).toHaveLength(1);
  });
});

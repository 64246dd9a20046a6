/** GET /transactions/{id}, PATCH .../notes and POST .../activity, over HTTP. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { setClock } from '#ports/clock';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';
import { createDeal, pinClock, postTask, putKeyDates } from './deal-fixtures.ts';

let t: TestApi;
let org: TestOrg;
beforeAll(async () => {
  t = await startTestApi();
  org = await t.newOrg('Detail Realty');
});
afterAll(() => t.close());
afterEach(() => setClock());

const get = (id: string) => t.call('GET', `/api/v1/transactions/${id}`, { key: org.keys.read });

describe('GET /transactions/{transactionId}', () => {
  it('returns the deal with key dates (soonest first), open tasks (soonest due first) and recent activity', async () => {
    const deal = await createDeal(org, '9 Elm St');
    await putKeyDates(t, org.keys.draft, deal.id, [
      { keyDateType: 'ClosingDate', dateValue: '2026-08-30' },
      { keyDateType: 'InspectionDeadline', dateValue: '2026-08-05' },
    ]);
    const late = await postTask(t, org.keys.draft, deal.id, { title: 'Book movers', dueDate: '2026-08-29' });
    const early = await postTask(t, org.keys.draft, deal.id, { title: 'Order inspection', dueDate: '2026-08-01' });
    const act = await t.call('POST', `/api/v1/transactions/${deal.id}/activity`, { key: org.keys.draft, body: { type: 'note', summary: 'Called lender' } });
    expect(act.status).toBe(200);

    const r = await get(deal.id);
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d).toMatchObject({ id: deal.id, address: '9 Elm St, Austin, TX 78704', status: 'Prospect', transactionType: 'Purchase', side: 'Buyer', notes: null, closedAt: null });
    expect(d.keyDates.map((k: any) => [k.keyDateType, k.dateValue])).toEqual([
      ['InspectionDeadline', '2026-08-05'],
      ['ClosingDate', '2026-08-30'],
    ]);
    expect(d.tasks.map((x: any) => x.id)).toEqual([early.id, late.id]);
    expect(d.tasks[0]).toMatchObject({ title: 'Order inspection', dueDate: '2026-08-01', status: 'open', transactionId: deal.id });
    expect(d.recentActivity).toEqual([
      { id: act.body.data.id, transactionId: deal.id, type: 'note', summary: 'Called lender', details: null, userId: org.ownerUserId, createdAt: act.body.data.createdAt },
    ]);
    // Writes bump updatedAt.
    expect(d.updatedAt > deal.updatedAt).toBe(true);
  });

  it('answers 404 not_found for an unknown id and 422 for a non-uuid id', async () => {
    const r = await get(randomUUID());
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: { code: 'not_found', message: 'Transaction not found.' } });
    const bad = await get('not-a-uuid');
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatchObject({ code: 'validation_error', fields: { transactionId: 'must be a uuid' } });
  });
});

describe('PATCH /transactions/{transactionId}/notes', () => {
  const patch = (id: string, notes: unknown) => t.call('PATCH', `/api/v1/transactions/${id}/notes`, { key: org.keys.draft, body: { notes } });

  it('sets notes, and null clears them (GET agrees each time)', async () => {
    const deal = await createDeal(org, '10 Notes Way');
    const set = await patch(deal.id, 'Seller wants a 30-day leaseback.');
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ id: deal.id, notes: 'Seller wants a 30-day leaseback.' });
    expect((await get(deal.id)).body.data.notes).toBe('Seller wants a 30-day leaseback.');

    const cleared = await patch(deal.id, null);
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.notes).toBeNull();
    expect((await get(deal.id)).body.data.notes).toBeNull();
  });

  it('makes the notes searchable with q, and clearing removes the match', async () => {
    const deal = await createDeal(org, '11 Search Rd');
    await patch(deal.id, 'HOA approval pending');
    const q = () => t.call('GET', '/api/v1/transactions?q=hoa%20approval', { key: org.keys.read });
    expect((await q()).body.data.map((x: any) => x.id)).toEqual([deal.id]);
    await patch(deal.id, null);
    expect((await q()).body.data).toEqual([]);
  });

  it('requires the notes field, the draft scope, and an existing deal', async () => {
    const deal = await createDeal(org, '12 Rules Ct');
    const missing = await t.call('PATCH', `/api/v1/transactions/${deal.id}/notes`, { key: org.keys.draft, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.error.fields).toHaveProperty('notes');
    const readOnly = await t.call('PATCH', `/api/v1/transactions/${deal.id}/notes`, { key: org.keys.read, body: { notes: 'x' } });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error.code).toBe('insufficient_scope');
    const absent = await patch(randomUUID(), 'x');
    expect(absent.status).toBe(404);
    expect(absent.body.error.code).toBe('not_found');
    expect((await get(deal.id)).body.data.notes).toBeNull();
  });
});

describe('POST /transactions/{transactionId}/activity', () => {
  const post = (id: string, body: unknown) => t.call('POST', `/api/v1/transactions/${id}/activity`, { key: org.keys.draft, body });

  it('appends entries that show in recentActivity newest first', async () => {
    const deal = await createDeal(org, '13 Activity Ave');
    pinClock('2026-05-01T10:00:00Z');
    const first = await post(deal.id, { type: 'call', summary: 'Spoke with buyer', details: 'Wants inspection Friday' });
    pinClock('2026-05-01T11:00:00Z');
    const second = await post(deal.id, { type: 'email', summary: 'Sent repair addendum' });
    setClock();
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({
      id: expect.any(String),
      transactionId: deal.id,
      type: 'call',
      summary: 'Spoke with buyer',
      details: 'Wants inspection Friday',
      userId: org.ownerUserId,
      createdAt: expect.stringMatching(/^2026-05-01T10:00/),
    });
    const r = await get(deal.id);
    expect(r.body.data.recentActivity.map((a: any) => a.id)).toEqual([second.body.data.id, first.body.data.id]);
    expect(r.body.data.recentActivity[0]).toMatchObject({ type: 'email', summary: 'Sent repair addendum', details: null });
  });

  it('rejects a blank summary with 422 and writes nothing; 404 for an unknown deal', async () => {
    const deal = await createDeal(org, '14 Blank Blvd');
    const bad = await post(deal.id, { type: 'note', summary: '   ' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields)).toEqual(['summary']);
    const absent = await post(randomUUID(), { type: 'note', summary: 'x' });
    expect(absent.status).toBe(404);
    expect((await get(deal.id)).body.data.recentActivity).toEqual([]);
  });
});

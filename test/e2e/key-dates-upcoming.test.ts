/** GET /key-dates/upcoming: horizon, order, daysUntil, limit and organization scoping (clock pinned). */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setClock } from '#ports/clock';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';
import { createDeal, pinClock, putKeyDates } from './deal-fixtures.ts';
import type { Transaction } from '#db/transactions';

let t: TestApi;
let org: TestOrg;
let other: TestOrg;
let a: Transaction;
let b: Transaction;
let foreign: Transaction;

beforeAll(async () => {
  t = await startTestApi();
  org = await t.newOrg('Upcoming Realty');
  other = await t.newOrg('Other Realty');
  a = await createDeal(org, '1 Alpha St');
  b = await createDeal(org, '2 Beta St');
  foreign = await createDeal(other, '3 Foreign St');
  await putKeyDates(t, org.keys.draft, a.id, [
    { keyDateType: 'OptionPeriodEnd', dateValue: '2026-03-09', isCustom: true },
    { keyDateType: 'InspectionDeadline', dateValue: '2026-03-10' },
    { keyDateType: 'ClosingDate', dateValue: '2026-03-25' },
  ]);
  await putKeyDates(t, org.keys.draft, b.id, [
    { keyDateType: 'FinancingDeadline', dateValue: '2026-03-12' },
    { keyDateType: 'ClosingDate', dateValue: '2026-03-24', label: 'Closing (Beta)' },
  ]);
  await putKeyDates(t, other.keys.draft, foreign.id, [{ keyDateType: 'ClosingDate', dateValue: '2026-03-11' }]);
});
afterAll(() => t.close());
beforeEach(() => pinClock('2026-03-10T12:00:00Z'));
afterEach(() => setClock());

const upcoming = (query = '', key = org.keys.read) => t.call('GET', `/api/v1/key-dates/upcoming${query}`, { key });
const rows = (body: any) => body.data.map((k: any) => [k.transactionId, k.keyDateType, k.dateValue, k.daysUntil]);

describe('GET /key-dates/upcoming', () => {
  it('returns dates from today through 14 days, soonest first, with daysUntil', async () => {
    const r = await upcoming();
    expect(r.status).toBe(200);
    expect(r.body.from).toBe('2026-03-10');
    expect(r.body.horizonDays).toBe(14);
    expect(rows(r.body)).toEqual([
      [a.id, 'InspectionDeadline', '2026-03-10', 0],
      [b.id, 'FinancingDeadline', '2026-03-12', 2],
      [b.id, 'ClosingDate', '2026-03-24', 14],
    ]);
    expect(r.body.data[2]).toMatchObject({ label: 'Closing (Beta)', address: '2 Beta St, Austin, TX 78704', isCustom: false, completedAt: null });
  });

  it('excludes dates beyond the horizon and includes them when it grows', async () => {
    expect(rows((await upcoming('?horizonDays=2')).body)).toEqual([
      [a.id, 'InspectionDeadline', '2026-03-10', 0],
      [b.id, 'FinancingDeadline', '2026-03-12', 2],
    ]);
    expect(rows((await upcoming('?horizonDays=0')).body)).toEqual([[a.id, 'InspectionDeadline', '2026-03-10', 0]]);
    const wide = await upcoming('?horizonDays=15');
    expect(rows(wide.body).at(-1)).toEqual([a.id, 'ClosingDate', '2026-03-25', 15]);
    expect(wide.body.data).toHaveLength(4);
  });

  it('respects limit', async () => {
    const r = await upcoming('?horizonDays=30&limit=2');
    expect(rows(r.body)).toEqual([
      [a.id, 'InspectionDeadline', '2026-03-10', 0],
      [b.id, 'FinancingDeadline', '2026-03-12', 2],
    ]);
  });

  it('follows the clock: a day later, today moves and daysUntil counts from it', async () => {
    pinClock('2026-03-12T00:30:00Z');
    const r = await upcoming('?horizonDays=12');
    expect(r.body.from).toBe('2026-03-12');
    expect(rows(r.body)).toEqual([
      [b.id, 'FinancingDeadline', '2026-03-12', 0],
      [b.id, 'ClosingDate', '2026-03-24', 12],
    ]);
  });

  it("never includes another organization's key dates", async () => {
    const mine = await upcoming('?horizonDays=365&limit=100');
    expect(mine.body.data.every((k: any) => k.transactionId !== foreign.id)).toBe(true);
    expect(mine.body.data).toHaveLength(4);
    const theirs = await upcoming('?horizonDays=365&limit=100', other.keys.read);
    expect(rows(theirs.body)).toEqual([[foreign.id, 'ClosingDate', '2026-03-11', 1]]);
  });

  it('validates horizonDays and limit', async () => {
    const r = await upcoming('?horizonDays=366&limit=0');
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.error.fields).sort()).toEqual(['horizonDays', 'limit']);
  });
});

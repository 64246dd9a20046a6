/**
 * Checklists and contingencies over HTTP: the system templates filter by state, side, type, complexity and
 * activeOnly; applying the Texas buyer template to a deal made from a TREC contract creates tasks that follow its
 * key dates (and move when a date moves), skips HOA/financing items the contract rules out, is not duplicated by a
 * second apply, honours `scope` and `replaceExisting`; the checklist reports aggregate status; open contingencies
 * come from the applied contract and key dates with deadline and state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { setClock } from '#ports/clock';
import type { TestApi, TestOrg } from '../support/http-client.ts';
import { createDeal, eventsFor, pinClock, putKeyDates } from './deal-fixtures.ts';
import { extractionResult, startDocumentsHarness, TREC_VALUES, uploadAndComplete, type DocumentsHarness } from './documents-fixtures.ts';

const BUYER = '5f0c8a52-3c1e-4f43-9a55-7d1a0b2c1a01';
const SELLER = '5f0c8a52-3c1e-4f43-9a55-7d1a0b2c1a02';
const CASH = '5f0c8a52-3c1e-4f43-9a55-7d1a0b2c1a03';
const RETIRED = '5f0c8a52-3c1e-4f43-9a55-7d1a0b2c1a04';

let h: DocumentsHarness;
let t: TestApi;
let org: TestOrg;
let other: TestOrg;
let financedDeal: any; // TREC_VALUES: third-party financing, HOA; effective 2030-03-02, closing 2030-04-15
let cashDeal: any; // cash, no HOA

const dealFromContract = async (values = TREC_VALUES) => {
  const { jobId } = await uploadAndComplete(t, org, extractionResult(values));
  const r = await t.call('POST', '/api/v1/transactions', { key: org.keys.actions, body: { extractionJobId: jobId } });
  if (r.status !== 200) throw new Error(r.text);
  return r.body.data;
};
const apply = (id: string, body: Record<string, unknown>, key = org.keys.draft) => t.call('POST', `/api/v1/transactions/${id}/checklist`, { key, body });
const checklist = async (id: string) => (await t.call('GET', `/api/v1/transactions/${id}/checklist`, { key: org.keys.read })).body.data;
const contingencies = async (id: string) => (await t.call('GET', `/api/v1/transactions/${id}/contingencies`, { key: org.keys.read })).body.data;

beforeAll(async () => {
  h = await startDocumentsHarness('Checklist Realty', 'Elsewhere Realty');
  ({ t, org, other } = h);
  financedDeal = await dealFromContract();
  cashDeal = await dealFromContract({ ...TREC_VALUES, propertyStreet: '9 Cash Ct', financingType: 'cash', salesPriceFinanced: null, salesPriceCash: 425_000, hoa: false, financingDeadlineDays: null, addenda: [] });
});
afterAll(async () => {
  setClock();
  await h.close();
});

describe('GET /checklist-templates', () => {
  const list = async (q: string) => (await t.call('GET', `/api/v1/checklist-templates${q}`, { key: org.keys.read })).body.data.map((x: any) => x.id);

  it('ships Texas buyer and seller resale templates whose items follow TREC key dates', async () => {
    const r = await t.call('GET', '/api/v1/checklist-templates?state=TX', { key: org.keys.read });
    expect(r.status).toBe(200);
    const byId = Object.fromEntries(r.body.data.map((x: any) => [x.id, x]));
    expect(Object.keys(byId).sort()).toEqual([BUYER, SELLER, CASH].sort());
    for (const id of [BUYER, SELLER]) {
      const linked = new Set(byId[id].items.map((i: any) => i.linkedKeyDate));
      for (const k of ['InspectionDeadline', 'FinancingDeadline', 'SurveyDeadline', 'TitleObjectionDeadline', 'EarnestMoneyDue', 'ClosingDate']) expect(linked, `${id} ${k}`).toContain(k);
      expect(new Set(byId[id].items.map((i: any) => i.section))).toEqual(new Set(['earnest_money', 'option_period', 'financing', 'title_survey', 'hoa', 'closing']));
    }
  });

  it('filters by side, transaction type, complexity, state name and activeOnly', async () => {
    expect(await list('?side=seller')).toEqual([SELLER]);
    expect(await list('?transactionType=Listing')).toEqual([SELLER]);
    expect((await list('?side=Buyer&complexity=standard'))).toEqual([BUYER]);
    expect(await list('?state=Texas&complexity=simple')).toEqual([CASH]);
    expect(await list('?state=CO')).toEqual([]);
    expect(await list('?activeOnly=false&side=Buyer&complexity=standard')).toEqual([BUYER, RETIRED]);
    expect(await list('?category=resale&side=Buyer')).toHaveLength(2);
  });

  it('refuses a malformed filter with 422', async () => {
    const r = await t.call('GET', '/api/v1/checklist-templates?activeOnly=maybe', { key: org.keys.read });
    expect(r.status).toBe(422);
    expect(r.body.error.fields).toHaveProperty('activeOnly');
  });
});

describe('POST /transactions/{id}/checklist', () => {
  it('creates tasks due on the deal key dates + offsets, linked so they move with the deadline', async () => {
    const r = await apply(financedDeal.id, { templateId: BUYER, replaceExisting: null, scope: null });
    expect(r.status, r.text).toBe(200);
    const res = r.body.data;
    expect(res.skipped).toEqual([]);
    const dates = Object.fromEntries(financedDeal.keyDates.map((k: any) => [k.keyDateType, k.dateValue]));
    const option = res.created.find((x: any) => x.title.startsWith('Option period ends'));
    expect(option).toMatchObject({ linkedMilestoneName: 'InspectionDeadline', dueOffsetDays: 0, dueDate: dates.InspectionDeadline, status: 'open' });
    const walk = res.created.find((x: any) => x.title === 'Schedule the final walk-through');
    expect(walk).toMatchObject({ linkedMilestoneName: 'ClosingDate', dueOffsetDays: -2, dueDate: '2030-04-13' });
    expect(res.created.filter((x: any) => x.linkedMilestoneName === 'FinancingDeadline')).toHaveLength(4);
    expect((await eventsFor(org.orgId, 'task.created', financedDeal.id)).length).toBeGreaterThanOrEqual(res.created.length);

    // Moving closing moves the checklist's closing tasks, keeping their offsets.
    await t.call('PATCH', `/api/v1/transactions/${financedDeal.id}/key-dates/ClosingDate`, { key: org.keys.draft, body: { newValue: '2030-04-22' } });
    const deal = (await t.call('GET', `/api/v1/transactions/${financedDeal.id}`, { key: org.keys.read })).body.data;
    expect(deal.tasks.find((x: any) => x.id === walk.id).dueDate).toBe('2030-04-20');
  });

  it('applying again adds nothing already there', async () => {
    const r = await apply(financedDeal.id, { templateId: BUYER });
    expect(r.status).toBe(200);
    expect(r.body.data.created).toEqual([]);
    expect(new Set(r.body.data.skipped.map((s: any) => s.reason))).toEqual(new Set(['already_on_deal']));
  });

  it('skips financing and HOA items a cash, no-HOA contract rules out; scope limits to sections', async () => {
    const r = await apply(cashDeal.id, { templateId: BUYER, scope: 'financing, hoa ,closing' });
    expect(r.status, r.text).toBe(200);
    const { created, skipped, sections } = r.body.data;
    expect(sections).toEqual(['financing', 'hoa', 'closing']);
    expect(created.map((x: any) => x.title).sort()).toEqual(['Closing: sign, fund and deliver keys', 'Schedule the final walk-through', 'Verify wire instructions by phone with the title company']);
    const reasons = Object.fromEntries(skipped.map((s: any) => [s.key, s.reason]));
    expect(reasons['financing-approval']).toBe('not_in_contract');
    expect(reasons['hoa-documents']).toBe('not_in_contract');
    expect(reasons['closing-disclosure']).toBe('not_in_contract');
    expect(reasons['schedule-inspection']).toBe('out_of_scope');
  });

  it('replaceExisting swaps open checklist tasks of the scope for the new template, keeping completed ones', async () => {
    const deal = await dealFromContract({ ...TREC_VALUES, propertyStreet: '12 Swap St' });
    const first = (await apply(deal.id, { templateId: BUYER })).body.data.created;
    const done = first.find((x: any) => x.title === 'Order or obtain the survey');
    expect((await t.call('POST', `/api/v1/tasks/${done.id}/complete`, { key: org.keys.draft })).status).toBe(200);
    const r = await apply(deal.id, { templateId: CASH, replaceExisting: true, scope: 'title_survey' });
    expect(r.status, r.text).toBe(200);
    const replacedIds = first.filter((x: any) => x.section !== 'x' && ['Review title commitment, exception documents and survey', 'Send title/survey objections (if any)'].includes(x.title)).map((x: any) => x.id);
    expect(r.body.data.removedTaskIds.sort()).toEqual(replacedIds.sort());
    // The completed survey task stays and is not made again; the two open ones are made afresh from the cash template.
    expect(r.body.data.created.map((x: any) => x.title).sort()).toEqual(['Review title commitment, exception documents and survey', 'Send title/survey objections (if any)']);
    const after = (await t.call('GET', `/api/v1/transactions/${deal.id}`, { key: org.keys.read })).body.data.tasks.map((x: any) => x.id);
    expect(after).toContain(done.id);
    for (const id of replacedIds) expect(after).not.toContain(id);
    const c = await checklist(deal.id);
    expect(c.templates.map((x: any) => x.templateId).sort()).toEqual([BUYER, CASH].sort());
    expect(c.total).toBe(first.length);
  });

  it('refuses an unknown or inactive template and an unknown scope with 422, writing nothing', async () => {
    const deal = await createDeal(org, '3 Refuse St');
    for (const body of [{ templateId: randomUUID() }, { templateId: RETIRED }, { templateId: BUYER, scope: 'inspections' }]) {
      const r = await apply(deal.id, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(r.body.error.fields)).toEqual([Object.keys(body).at(-1)]);
    }
    expect((await checklist(deal.id)).status).toBe('none');
    expect((await t.call('GET', `/api/v1/transactions/${deal.id}`, { key: org.keys.read })).body.data.tasks).toEqual([]);
  });

  it("a deal without key dates gets undated linked tasks that take their date when the key date is set; another org's deal is 404", async () => {
    const deal = await createDeal(org, '4 Later St');
    const r = await apply(deal.id, { templateId: SELLER, scope: 'closing' });
    expect(r.body.data.created.every((x: any) => x.dueDate === null && x.linkedMilestoneName === 'ClosingDate')).toBe(true);
    await putKeyDates(t, org.keys.draft, deal.id, [{ keyDateType: 'ClosingDate', dateValue: '2030-06-30' }]);
    const tasks = (await t.call('GET', `/api/v1/transactions/${deal.id}`, { key: org.keys.read })).body.data.tasks;
    expect(tasks.find((x: any) => x.title === 'Request mortgage payoff statement').dueDate).toBe('2030-06-20');
    expect((await apply(deal.id, { templateId: SELLER }, other.keys.draft)).status).toBe(404);
    expect((await t.call('GET', `/api/v1/transactions/${deal.id}/checklist`, { key: other.keys.read })).status).toBe(404);
  });
});

describe('GET /transactions/{id}/checklist', () => {
  it('reports counts, overdue items and status overall and per section', async () => {
    const deal = await dealFromContract({ ...TREC_VALUES, propertyStreet: '15 Count St' });
    expect((await checklist(deal.id))).toMatchObject({ status: 'none', total: 0 });
    const created = (await apply(deal.id, { templateId: BUYER, scope: 'earnest_money,option_period' })).body.data.created;
    expect(created).toHaveLength(5);
    pinClock('2030-03-08T12:00:00Z'); // after EarnestMoneyDue (03-05) and two option tasks (03-03, 03-07); before the option period ends (03-09)
    try {
      expect(await checklist(deal.id)).toMatchObject({ total: 5, completed: 0, open: 5, overdue: 4, percentComplete: 0, status: 'not_started' });
      for (const x of created.filter((x: any) => x.linkedMilestoneName !== 'InspectionDeadline')) await t.call('POST', `/api/v1/tasks/${x.id}/complete`, { key: org.keys.draft });
      const c = await checklist(deal.id);
      expect(c).toMatchObject({ total: 5, completed: 2, open: 3, overdue: 2, percentComplete: 40, status: 'in_progress' });
      expect(c.sections).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ section: 'earnest_money', total: 2, completed: 2, status: 'complete' }),
          expect.objectContaining({ section: 'option_period', total: 3, completed: 0, status: 'not_started' }),
        ]),
      );
      expect(c.items.map((i: any) => i.dueDate)).toEqual([...c.items.map((i: any) => i.dueDate)].sort());
    } finally {
      setClock();
    }
  });
});

describe('GET /transactions/{id}/contingencies', () => {
  it('lists option period, financing, appraisal, title/survey and HOA with deadlines and states', async () => {
    pinClock('2030-03-10T12:00:00Z');
    try {
      const deal = await dealFromContract({ ...TREC_VALUES, propertyStreet: '21 Contingent Way' });
      const list = await contingencies(deal.id);
      const byType = Object.fromEntries(list.map((c: any) => [c.type, c]));
      expect(Object.keys(byType).sort()).toEqual(['appraisal', 'financing', 'hoa', 'option_period', 'title_survey']);
      expect(byType.option_period).toMatchObject({ keyDateType: 'InspectionDeadline', deadline: '2030-03-09', state: 'past_deadline', daysRemaining: -1 });
      expect(byType.financing).toMatchObject({ keyDateType: 'FinancingDeadline', deadline: '2030-03-23', state: 'open', daysRemaining: 13 });
      expect(byType.appraisal).toMatchObject({ keyDateType: 'FinancingDeadline', deadline: '2030-03-23' });
      expect(byType.title_survey.keyDateType).toBe('TitleObjectionDeadline');
      expect(byType.hoa).toMatchObject({ deadline: null, state: 'no_deadline' });
      expect(list.at(-1).type).toBe('hoa');

      // An appraisal deadline of its own, and a satisfied option period (key date completed) drops out.
      await putKeyDates(t, org.keys.draft, deal.id, [{ keyDateType: 'AppraisalDeadline', dateValue: '2030-03-10' }]);
      const next = Object.fromEntries((await contingencies(deal.id)).map((c: any) => [c.type, c]));
      expect(next.appraisal).toMatchObject({ keyDateType: 'AppraisalDeadline', state: 'due_today', daysRemaining: 0 });
    } finally {
      setClock();
    }
  });

  it('a cash deal without HOA has no financing, appraisal or HOA contingency; a bare deal has none', async () => {
    const types = (await contingencies(cashDeal.id)).map((c: any) => c.type).sort();
    expect(types).toEqual(['option_period', 'title_survey']);
    const bare = await createDeal(org, '5 Bare St');
    expect(await contingencies(bare.id)).toEqual([]);
    expect((await t.call('GET', `/api/v1/transactions/${bare.id}/contingencies`, { key: other.keys.read })).status).toBe(404);
  });
});

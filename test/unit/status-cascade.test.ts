/**
 * `planCascade`: key-date shifts are applied before tasks are planned, so a task linked to a shifted date
 * follows the new date; a task falls back to `dueInDays` when the deal lacks its key date; `closes` is
 * set for a `closed` category only.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_STATUS_VOCABULARY, findStatus, planCascade, type StatusDefinition } from '#domain/statuses';

const TODAY = '2030-01-10';
const status = (name: string) => {
  const s = findStatus(DEFAULT_STATUS_VOCABULARY, name);
  if (!s) throw new Error(`no status ${name}`);
  return s;
};

describe('planCascade', () => {
  it('shifts first, then plans linked tasks from the shifted date (even when the task is listed first)', () => {
    const extendAndConfirm: StatusDefinition = {
      name: 'Extended',
      category: 'pending',
      description: '',
      cascade: [
        { type: 'createTask', title: 'Confirm new closing', linkedKeyDate: 'ClosingDate', offsetDays: -2, dueInDays: 1 },
        { type: 'shiftKeyDates', keyDateTypes: ['ClosingDate', 'FundingDate'], days: 7, note: 'extended' },
      ],
    };

    const plan = planCascade(extendAndConfirm, { ClosingDate: '2030-01-28', OptionPeriodEnd: '2030-01-15' }, TODAY);

    expect(plan.shifts).toEqual([{ keyDateType: 'ClosingDate', from: '2030-01-28', to: '2030-02-04', note: 'extended' }]);
    expect(plan.tasks).toEqual([
      { title: 'Confirm new closing', description: undefined, priority: undefined, dueDate: '2030-02-02', linkedMilestoneName: 'ClosingDate', dueOffsetDays: -2 },
    ]);
    expect(plan.closes).toBe(false);
  });

  it('shifts across a leap day', () => {
    const plan = planCascade(status('Closing Extended'), { ClosingDate: '2028-02-25' }, TODAY);

    expect(plan.shifts.map((s) => s.to)).toEqual(['2028-03-03']);
  });

  it('shifts nothing the deal does not have', () => {
    const plan = planCascade(status('Closing Extended'), { OptionPeriodEnd: '2030-01-15' }, TODAY);

    expect(plan.shifts).toEqual([]);
    expect(plan.tasks.map((t) => t.dueDate)).toEqual(['2030-01-11']);
  });

  it('falls back to dueInDays from today when the linked key date is missing', () => {
    const plan = planCascade(status('Under Contract'), {}, TODAY);

    const inspection = plan.tasks.find((t) => t.title === 'Schedule home inspection')!;
    expect(inspection.dueDate).toBe('2030-01-15');
    expect(inspection.linkedMilestoneName).toBeUndefined();
    expect(inspection.dueOffsetDays).toBeUndefined();
    expect(plan.tasks.map((t) => t.dueDate)).toEqual(['2030-01-13', '2030-01-12', '2030-01-15']);
  });

  it('uses the linked key date and offset when the deal has it', () => {
    const plan = planCascade(status('Under Contract'), { InspectionDeadline: '2030-01-20' }, TODAY);

    expect(plan.tasks.find((t) => t.title === 'Schedule home inspection')).toMatchObject({
      dueDate: '2030-01-17',
      linkedMilestoneName: 'InspectionDeadline',
      dueOffsetDays: -3,
    });
  });

  it('sets closes only for a status of category closed', () => {
    expect(planCascade(status('Closed'), {}, TODAY).closes).toBe(true);
    for (const name of ['Cancelled', 'Clear to Close', 'Prospect']) expect(planCascade(status(name), {}, TODAY).closes).toBe(false);
  });

  it('does not modify the key dates it is given', () => {
    const keyDates = { ClosingDate: '2030-01-28' };

    planCascade(status('Closing Extended'), keyDates, TODAY);

    expect(keyDates).toEqual({ ClosingDate: '2030-01-28' });
  });
});

describe('findStatus', () => {
  it('matches case-insensitively and ignores surrounding spaces', () => {
    expect(findStatus(DEFAULT_STATUS_VOCABULARY, '  under CONTRACT ')?.name).toBe('Under Contract');
    expect(findStatus(DEFAULT_STATUS_VOCABULARY, 'Under')).toBeUndefined();
  });
});

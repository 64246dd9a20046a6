/**
 * `rankNextActions`: overdue tasks first (most overdue first), then by days until due; on the same day a
 * key date outranks a task and a lower priority number outranks a higher one; undated tasks last; past key
 * dates are dropped.
 */
import { describe, expect, it } from 'vitest';
import { rankNextActions, type NextAction } from '#domain/next-actions';

const TODAY = '2030-01-10';
type Input = Omit<NextAction, 'daysUntil' | 'overdue'>;
const task = (title: string, date: string | null, priority: number | null): Input => ({ kind: 'task', transactionId: 't1', address: 'a', title, date, priority, taskId: title });
const keyDate = (title: string, date: string): Input => ({ kind: 'keyDate', transactionId: 't1', address: 'a', title, date, priority: null, keyDateType: title });

const actions: Input[] = [
  task('undated', null, 1),
  keyDate('in 3 days', '2030-01-13'),
  task('today p3', '2030-01-10', 3),
  task('in 2 days, no priority', '2030-01-12', null),
  keyDate('past key date', '2030-01-08'),
  task('overdue 1', '2030-01-09', 1),
  task('today p1', '2030-01-10', 1),
  keyDate('today key date', '2030-01-10'),
  task('overdue 5', '2030-01-05', 2),
  task('today no priority', '2030-01-10', null),
];

describe('rankNextActions', () => {
  it('orders overdue, then by day (key date before task, then priority), undated last; drops past key dates', () => {
    const ranked = rankNextActions(actions, TODAY, 50);

    expect(ranked.map((a) => a.title)).toEqual([
      'overdue 5',
      'overdue 1',
      'today key date',
      'today p1',
      'today p3',
      'today no priority',
      'in 2 days, no priority',
      'in 3 days',
      'undated',
    ]);
  });

  it('computes daysUntil and marks only dated past tasks overdue', () => {
    const byTitle = new Map(rankNextActions(actions, TODAY, 50).map((a) => [a.title, a]));

    expect(byTitle.get('overdue 5')).toMatchObject({ daysUntil: -5, overdue: true });
    expect(byTitle.get('today key date')).toMatchObject({ daysUntil: 0, overdue: false });
    expect(byTitle.get('in 3 days')).toMatchObject({ daysUntil: 3, overdue: false });
    expect(byTitle.get('undated')).toMatchObject({ daysUntil: null, overdue: false });
  });

  it('counts days across a month end', () => {
    const [a] = rankNextActions([keyDate('closing', '2030-02-02')], '2030-01-30', 5);

    expect(a.daysUntil).toBe(3);
  });

  it('applies the limit after ranking', () => {
    expect(rankNextActions(actions, TODAY, 3).map((a) => a.title)).toEqual(['overdue 5', 'overdue 1', 'today key date']);
  });
});

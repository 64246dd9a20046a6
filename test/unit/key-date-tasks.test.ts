/** A task follows its key date (shared/domain/key-date-tasks.ts): which tasks move and where to. */
import { describe, expect, it } from 'vitest';
import { tasksFollowingKeyDate, type FollowingTask } from '#domain/key-date-tasks';

const task = (id: string, over: Partial<FollowingTask> = {}) => ({ id, status: 'open' as const, linkedMilestoneName: 'ClosingDate', dueDate: '2026-12-10', dueOffsetDays: -3, ...over });

describe('tasksFollowingKeyDate', () => {
  it('moves an open linked task by its offset, across a month and a year boundary', () => {
    expect(tasksFollowingKeyDate([task('a', { dueOffsetDays: -3 })], 'ClosingDate', '2027-01-02')).toEqual([{ ...task('a'), dueDate: '2026-12-30', dueOffsetDays: -3 }]);
    expect(tasksFollowingKeyDate([task('b', { dueOffsetDays: 5 })], 'ClosingDate', '2028-02-26')).toEqual([{ ...task('b'), dueDate: '2028-03-02', dueOffsetDays: 5 }]);
  });

  it('leaves out completed tasks and tasks linked to another key date, keeping the others in order', () => {
    const tasks = [task('done', { status: 'completed' }), task('other', { linkedMilestoneName: 'OptionPeriodEnd' }), task('unlinked', { linkedMilestoneName: null }), task('x', { dueOffsetDays: 0 }), task('y', { dueOffsetDays: 1 })];
    expect(tasksFollowingKeyDate(tasks, 'ClosingDate', '2026-12-18').map((t) => [t.id, t.dueDate])).toEqual([
      ['x', '2026-12-18'],
      ['y', '2026-12-19'],
    ]);
  });

  it('a task dated before its key date existed keeps its date and remembers the offset from the new date', () => {
    expect(tasksFollowingKeyDate([task('c', { dueDate: '2026-12-10', dueOffsetDays: null })], 'ClosingDate', '2026-12-18')).toEqual([{ ...task('c'), dueDate: '2026-12-10', dueOffsetDays: -8 }]);
  });

  it('a task with neither date nor offset lands on the key date (offset 0)', () => {
    expect(tasksFollowingKeyDate([task('d', { dueDate: null, dueOffsetDays: null })], 'ClosingDate', '2026-12-18')).toEqual([{ ...task('d'), dueDate: '2026-12-18', dueOffsetDays: 0 }]);
  });

  it('returns copies: the tasks given are not changed', () => {
    const given = [task('e', { dueOffsetDays: 2 })];
    tasksFollowingKeyDate(given, 'ClosingDate', '2026-12-18');
    expect(given[0]).toEqual(task('e', { dueOffsetDays: 2 }));
  });
});

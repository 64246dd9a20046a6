/**
 * A task follows its key date (spec "Task": `linkedMilestoneName` names a key-date type of the deal): while open, it
 * is due `dueOffsetDays` days after that date, so moving the date moves the task by the same number of days.
 */
import { addDays, daysBetween } from '#domain/calendar';

/** What the rule reads of a task. Dates are `YYYY-MM-DD`. */
export interface FollowingTask {
  status: 'open' | 'completed';
  linkedMilestoneName: string | null;
  dueDate: string | null;
  /** Days after the linked key date (negative: before); null when the task was dated before its key date existed. */
  dueOffsetDays: number | null;
}

/**
 * The open tasks of `tasks` linked to `keyDateType`, as they are once that key date is `dateValue` (others are left
 * out; completed tasks never move):
 * - with an offset (or none and no due date: offset 0), due `dateValue + dueOffsetDays`;
 * - dated before the key date existed (no offset, a due date): the date is kept and the offset from `dateValue`
 *   remembered, so later moves carry it along.
 * @param dateValue the key date's new value, `YYYY-MM-DD`
 * @returns the moved tasks, each with `dueDate` and `dueOffsetDays` set, in the order of `tasks`
 */
export function tasksFollowingKeyDate<T extends FollowingTask>(tasks: readonly T[], keyDateType: string, dateValue: string): (T & { dueDate: string; dueOffsetDays: number })[] {
  return tasks
    .filter((t) => t.status === 'open' && t.linkedMilestoneName === keyDateType)
    .map((t) =>
      t.dueOffsetDays === null && t.dueDate
        ? { ...t, dueDate: t.dueDate, dueOffsetDays: daysBetween(dateValue, t.dueDate) }
        : { ...t, dueDate: addDays(dateValue, t.dueOffsetDays ?? 0), dueOffsetDays: t.dueOffsetDays ?? 0 },
    );
}

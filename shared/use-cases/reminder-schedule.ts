/**
 * The schedules of deadline reminders (shared/use-cases/reminders.ts creates them): the one-time schedule of each
 * generation, and moving a reminder when the key date it follows moves. Kept apart from the rest of the reminder
 * code so the key-date writers (key dates, status cascade, applying a contract) bundle no template code.
 */
import { updateReminder, type Reminder } from '#db/reminders';
import { scheduler } from '#ports/scheduler';
import { reminderTime } from '#domain/reminders';
import { logger } from '#observability/powertools';

/** The schedule of a reminder's generation (EventBridge Scheduler: at most 64 of letters, digits, `-`, `_`, `.`). */
export const reminderScheduleName = (id: string, generation: number) => `rem-${id}-${generation}`;

/** What the scheduled-send worker receives for a reminder. */
export interface ReminderFire {
  orgId: string;
  transactionId: string;
  reminderId: string;
  generation: number;
}

/** The payload of a reminder's schedule. */
export const fireOf = (orgId: string, r: Pick<Reminder, 'transactionId' | 'id' | 'generation'>): Record<string, unknown> & ReminderFire => ({
  orgId,
  transactionId: r.transactionId,
  reminderId: r.id,
  generation: r.generation,
});

/**
 * Moves a pending reminder to a new deadline: a new schedule first (generation + 1), then the reminder, then the old
 * schedule is deleted. A reminder whose new time has passed ends `expired`. Losing a race (another move, the send)
 * changes nothing: the new schedule is deleted again.
 * @returns the reminder as it now is, or undefined when it was not pending at that generation
 */
export async function moveReminder(orgId: string, r: Reminder, deadlineDate: string, now: Date): Promise<Reminder | undefined> {
  const { local, sendAt } = reminderTime(deadlineDate, r.daysBeforeReminder, r.reminderTimeOfDay, r.timezone);
  const sched = await scheduler();
  const at = { from: 'pending' as const, generation: r.generation };
  if (Date.parse(sendAt) <= now.getTime()) {
    const set = { status: 'expired' as const, deadlineDate, scheduledLocal: local, sendAt, updatedAt: now.toISOString(), error: `the deadline moved to ${deadlineDate}; the reminder time had passed` };
    if (!(await updateReminder(orgId, r, at, set))) return undefined;
    await sched.delete(reminderScheduleName(r.id, r.generation));
    return { ...r, ...set };
  }
  const generation = r.generation + 1;
  const next = { deadlineDate, scheduledLocal: local, sendAt, generation, updatedAt: now.toISOString() };
  await sched.create({ name: reminderScheduleName(r.id, generation), at: local, timezone: r.timezone, target: 'scheduled-send', payload: fireOf(orgId, { ...r, generation }) });
  if (!(await updateReminder(orgId, r, at, next))) {
    await sched.delete(reminderScheduleName(r.id, generation));
    return undefined;
  }
  await sched.delete(reminderScheduleName(r.id, r.generation));
  return { ...r, ...next };
}

/**
 * After key dates were written: moves the deal's pending reminders that follow a key date that changed. A failure
 * is logged, not thrown (the key dates are committed); the send re-checks the deadline and moves a stale reminder
 * then.
 * @param reminders the deal's reminders as read before the write
 * @param keyDates the key dates as written
 */
export async function followKeyDates(orgId: string, reminders: readonly Reminder[], keyDates: readonly { keyDateType: string; dateValue: string }[], now: Date): Promise<void> {
  const dates = new Map(keyDates.map((k) => [k.keyDateType, k.dateValue]));
  for (const r of reminders) {
    const date = r.deadlineType ? dates.get(r.deadlineType) : undefined;
    if (r.status !== 'pending' || !date || date === r.deadlineDate) continue;
    try {
      await moveReminder(orgId, r, date, now);
    } catch (err) {
      logger.error('reminder not moved with its key date; the send will move it', { reminderId: r.id, error: err instanceof Error ? err.message : String(err) });
    }
  }
}

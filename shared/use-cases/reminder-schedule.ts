/**
 * The schedules of deadline reminders (shared/use-cases/reminders.ts creates them): the one-time schedule of each
 * generation, requested through the outbox (shared/use-cases/schedule-requests.ts), and moving a reminder when the
 * key date it follows moves. Kept apart from the rest of the reminder
 * code so the key-date writers (key dates, status cascade, applying a contract) bundle no template code.
 */
import { reminderUpdate, type Reminder } from '#db/reminders';
import { transactWrite, type TransactItem } from '#db/transact';
import { scheduleCancelPut, scheduleRequestPut } from '#use-cases/schedule-requests';
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

/** A moved reminder due sooner than this (ms) expires instead: its schedule is created after the move commits. */
export const MOVE_LEAD_MS = 60_000;

/** What the relay marks `failed` when a generation's schedule cannot be created. */
const subjectOf = (r: Pick<Reminder, 'transactionId' | 'id' | 'generation'>) => ({ kind: 'reminder' as const, transactionId: r.transactionId, reminderId: r.id, generation: r.generation });

/**
 * The `schedule.requested` outbox `Put` of the reminder's current generation (`scheduledLocal` in `timezone`), for
 * the transaction that writes the reminder at that generation.
 */
export function reminderScheduleRequest(orgId: string, r: Pick<Reminder, 'transactionId' | 'id' | 'generation' | 'scheduledLocal' | 'timezone' | 'createdBy'>, now: Date) {
  const schedule = { name: reminderScheduleName(r.id, r.generation), at: r.scheduledLocal, timezone: r.timezone, target: 'scheduled-send' as const, payload: fireOf(orgId, r) };
  return scheduleRequestPut({ orgId, userId: r.createdBy }, schedule, subjectOf(r), now);
}

/**
 * Moves a pending reminder to a new deadline: generation + 1 with the request of its schedule and the deletion of
 * the old one, in one transaction (the outbox relay makes both). A reminder whose new time has passed, or is less
 * than `MOVE_LEAD_MS` away, ends `expired` (and its schedule's deletion is requested). Losing a race (another move,
 * the send) changes nothing.
 * @returns the reminder as it now is, or undefined when it was not pending at that generation
 */
export async function moveReminder(orgId: string, r: Reminder, deadlineDate: string, now: Date): Promise<Reminder | undefined> {
  const { local, sendAt } = reminderTime(deadlineDate, r.daysBeforeReminder, r.reminderTimeOfDay, r.timezone);
  const at = { from: 'pending' as const, generation: r.generation };
  const actor = { orgId, userId: r.createdBy };
  const cancelOld = scheduleCancelPut(actor, reminderScheduleName(r.id, r.generation), subjectOf(r), now);
  const lost = new Error('reminder not pending at its generation');
  const commit = (items: TransactItem[]) =>
    transactWrite(items, () => lost).then(
      () => true,
      (err: unknown) => (err === lost ? false : Promise.reject(err)),
    );
  // As on create (a minute's lead): the relay creates the schedule after this commits, so it must not be due already.
  if (Date.parse(sendAt) <= now.getTime() + MOVE_LEAD_MS) {
    const set = { status: 'expired' as const, deadlineDate, scheduledLocal: local, sendAt, updatedAt: now.toISOString(), error: `the deadline moved to ${deadlineDate}; the reminder time had passed` };
    if (!(await commit([reminderUpdate(orgId, r, at, set), cancelOld]))) return undefined;
    return { ...r, ...set };
  }
  const next = { deadlineDate, scheduledLocal: local, sendAt, generation: r.generation + 1, updatedAt: now.toISOString() };
  const moved = { ...r, ...next };
  if (!(await commit([reminderUpdate(orgId, r, at, next), reminderScheduleRequest(orgId, moved, now), cancelOld]))) return undefined;
  return moved;
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

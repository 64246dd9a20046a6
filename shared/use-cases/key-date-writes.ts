/**
 * The writes that set key dates on a deal, planned from the deal as read: the key dates, one `key_date.updated` per
 * change and the moves of the open tasks that follow them. Shared by the key-date use cases
 * (shared/use-cases/key-dates.ts), a status cascade and an applied extraction, which commit them.
 */
import { keyDatePut, type KeyDate } from '#db/key-date-items';
import { taskMoveUpdate, type Task } from '#db/task-items';
import type { Deal } from '#db/transactions';
import type { TransactItem } from '#db/transact';
import { outboxPut } from '#db/outbox';
import type { Actor } from '#events/outbox';
import { tasksFollowingKeyDate } from '#domain/key-date-tasks';

/** One key date to set: its type and value (`YYYY-MM-DD`); omitted fields keep the existing date's. */
export interface KeyDateChange {
  keyDateType: string;
  dateValue: string;
  isCustom?: boolean | null;
  label?: string | null;
  source?: string | null;
  calculationNotes?: string | null;
}

/** The planned writes of key-date changes on a deal. */
export interface KeyDateWrites {
  /** The resulting key dates, in the order of the changes. */
  keyDates: KeyDate[];
  /** Key-date puts, one `key_date.updated` per change and the moves of linked tasks, for the caller's transaction. */
  items: TransactItem[];
  /** The linked open tasks as they will be after the moves. */
  movedTasks: Task[];
}

/**
 * The writes that set key dates on `deal` (as read) and move the open tasks that follow them
 * (shared/domain/key-date-tasks.ts). Unchanged entries write nothing and emit nothing.
 */
export function keyDateWrites(actor: Actor, deal: Pick<Deal, 'id' | 'address' | 'keyDates' | 'tasks'>, changes: KeyDateChange[], now: Date): KeyDateWrites {
  const existing = new Map(deal.keyDates.map((k) => [k.keyDateType, k]));
  const items: TransactItem[] = [];
  const keyDates: KeyDate[] = [];
  const movedTasks: Task[] = [];
  for (const c of changes) {
    const prev = existing.get(c.keyDateType);
    const next: KeyDate = {
      transactionId: deal.id,
      keyDateType: c.keyDateType,
      dateValue: c.dateValue,
      isCustom: c.isCustom ?? prev?.isCustom ?? false,
      label: c.label !== undefined ? c.label : (prev?.label ?? null),
      source: c.source !== undefined ? c.source : (prev?.source ?? null),
      calculationNotes: c.calculationNotes !== undefined ? c.calculationNotes : (prev?.calculationNotes ?? null),
      completedAt: prev?.completedAt ?? null,
      address: deal.address,
      createdAt: prev?.createdAt ?? now.toISOString(),
      updatedAt: now.toISOString(),
    };
    const same = prev && prev.dateValue === next.dateValue && prev.isCustom === next.isCustom && prev.label === next.label && prev.source === next.source && prev.calculationNotes === next.calculationNotes;
    if (same) {
      keyDates.push(prev);
      continue;
    }
    keyDates.push(next);
    items.push(keyDatePut(actor.orgId, next));
    items.push(outboxPut(actor, 'key_date.updated', { transactionId: deal.id, keyDateType: next.keyDateType, dateValue: next.dateValue, previousValue: prev?.dateValue ?? null }, now));
    if (prev?.dateValue === next.dateValue) continue;
    for (const moved of tasksFollowingKeyDate(deal.tasks, next.keyDateType, next.dateValue)) {
      items.push(taskMoveUpdate(actor.orgId, moved));
      movedTasks.push(moved);
    }
  }
  return { keyDates, items, movedTasks };
}

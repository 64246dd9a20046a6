/**
 * Key-date use cases (spec "Key date": a type appears at most once per deal; writing it again updates it): the
 * bulk upsert and the change of one date. Each commits, in one `TransactWriteItems`, the dates, the moves of the
 * open tasks that follow them, one `key_date.updated` per change and the deal's `updatedAt`, on condition that
 * the deal is unchanged since it was read (a concurrent write makes it read and plan again). Then the deal's reminders
 * that follow a moved key date are rescheduled.
 */
import type { KeyDate } from '#db/key-date-items';
import { getDeal, touchTransaction, type Deal } from '#db/transactions';
import { MAX_TRANSACT_ITEMS, transactWrite, type TransactItem } from '#db/transact';
import type { Actor } from '#events/outbox';
import { keyDateWrites, type KeyDateChange } from '#use-cases/key-date-writes';
import { Conflict, InvalidInput, NotFound } from '#domain/errors';
import { retryStale, StaleRead } from '#use-cases/optimistic';
import { followKeyDates } from '#use-cases/reminder-schedule';

const busy = () => new Conflict('The transaction kept changing while its key dates were written; retry.');

/**
 * What a caller that writes key dates on someone's behalf (an approved proposal) adds to the bulk upsert: a check
 * of the deal as read, inside the same optimistic attempt (so what it checked is what the commit is conditional
 * on), and writes that commit in the same transaction.
 */
export interface UpsertExtras {
  /** Throws (a domain error) to refuse the write given the deal as read. */
  check?: (deal: Deal) => void;
  /** Writes committed with the key dates (e.g. the proposal's status), even when no date changes. */
  items?: (deal: Deal, keyDates: KeyDate[]) => TransactItem[];
  /** The error when a condition of one of `items` fails. */
  onItemConditionFailed?: () => Error;
}

/**
 * Bulk upsert.
 * @param extras see {@link UpsertExtras}
 * @throws InvalidInput when the same type is given twice, or the change is too large for one transaction
 * @throws NotFound when the deal does not exist in the organization
 * @throws Conflict when the deal kept changing under every attempt
 * @throws whatever `extras.check` or `extras.onItemConditionFailed` throw
 */
export async function upsertKeyDates(actor: Actor, transactionId: string, changes: KeyDateChange[], now: Date, extras: UpsertExtras = {}): Promise<KeyDate[]> {
  const seen = new Map<string, number>();
  changes.forEach((c, i) => {
    if (seen.has(c.keyDateType)) throw new InvalidInput({ [`keyDates[${i}].keyDateType`]: `duplicates keyDates[${seen.get(c.keyDateType)}]: a type appears at most once per transaction` });
    seen.set(c.keyDateType, i);
  });
  return retryStale(async () => {
    const deal = await getDeal(actor.orgId, transactionId);
    extras.check?.(deal);
    const { keyDates, items } = keyDateWrites(actor, deal, changes, now);
    const extra = extras.items?.(deal, keyDates) ?? [];
    await commit(actor, deal, items, now, extra, extras.onItemConditionFailed);
    await followKeyDates(actor.orgId, deal.reminders, keyDates, now);
    return keyDates;
  }, busy);
}

/**
 * Changes one existing key date (`dateValue` null or omitted keeps the date and changes the other fields).
 * @throws NotFound when the deal or that key date does not exist
 * @throws Conflict when the deal kept changing under every attempt
 */
export async function updateKeyDate(
  actor: Actor,
  transactionId: string,
  keyDateType: string,
  change: Omit<KeyDateChange, 'keyDateType' | 'dateValue'> & { dateValue?: string | null },
  now: Date,
): Promise<KeyDate> {
  return retryStale(async () => {
    const deal = await getDeal(actor.orgId, transactionId);
    const prev = deal.keyDates.find((k) => k.keyDateType === keyDateType);
    if (!prev) throw new NotFound('Key date');
    const { keyDates, items } = keyDateWrites(actor, deal, [{ ...change, keyDateType, dateValue: change.dateValue ?? prev.dateValue }], now);
    await commit(actor, deal, items, now);
    await followKeyDates(actor.orgId, deal.reminders, keyDates, now);
    return keyDates[0];
  }, busy);
}

/**
 * Commits the planned writes with the deal's touch (nothing when nothing changed and there are no `extra` items).
 * `extra` go right after the touch; a failed condition there throws `onExtraFailed()`.
 * @throws StaleRead
 */
async function commit(actor: Actor, deal: Deal, items: TransactItem[], now: Date, extra: TransactItem[] = [], onExtraFailed?: () => Error): Promise<void> {
  if (!items.length && !extra.length) return;
  if (items.length + extra.length + 1 > MAX_TRANSACT_ITEMS) throw new InvalidInput({ keyDates: 'too many key dates and linked tasks change at once; send fewer key dates per request' });
  await transactWrite([touchTransaction(actor.orgId, deal, now, { expectedVersion: deal.version }), ...extra, ...items], (index) =>
    index === 0 ? new StaleRead() : index <= extra.length && onExtraFailed ? onExtraFailed() : new Conflict('A task moved with the key date changed meanwhile; retry.'),
  );
}

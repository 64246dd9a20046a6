/**
 * Writing key dates: a bulk upsert or one change, each in one `TransactWriteItems` with the tasks that
 * follow the date (`linkedMilestoneName`), the deal's `updatedAt` and one `key_date.updated` per change.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { gsi1 } from '#db/keys';
import { keyDatePut, toKeyDate, type KeyDate } from '#db/key-date-items';
import { openTaskIndex, type Task } from '#db/task-items';
import { getDeal, touchTransaction, type Deal } from '#db/transactions';
import { transactWrite, MAX_TRANSACT_ITEMS, type TransactItem } from '#db/transact';
import { outboxPut, type Actor } from '#events/outbox';
import { addDays, dayNumber, daysBetween } from '#domain/calendar';
import { NotFoundError, ValidationError } from '#http/errors';

export interface KeyDateChange {
  keyDateType: string;
  dateValue: string;
  isCustom?: boolean | null;
  label?: string | null;
  source?: string | null;
  calculationNotes?: string | null;
}

/**
 * The writes that set key dates on `deal` and move their linked open tasks. Unchanged entries write
 * nothing and emit nothing.
 * @returns the resulting key dates and the writes
 */
export function planKeyDateWrites(actor: Actor, deal: Deal, changes: KeyDateChange[], now: Date) {
  const existing = new Map(deal.keyDates.map((k) => [k.keyDateType, k]));
  const items: TransactItem[] = [];
  const result: KeyDate[] = [];
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
      result.push(prev);
      continue;
    }
    result.push(next);
    items.push(keyDatePut(actor.orgId, next));
    items.push(outboxPut(actor, 'key_date.updated', { transactionId: deal.id, keyDateType: next.keyDateType, dateValue: next.dateValue, previousValue: prev?.dateValue ?? null }, now));
    if (prev?.dateValue !== next.dateValue) {
      deal.tasks
        .filter((t) => t.status === 'open' && t.linkedMilestoneName === next.keyDateType)
        .forEach((t) =>
          items.push(
            t.dueOffsetDays === null && t.dueDate
              ? // Dated before its key date existed: keep the date, remember the offset from now on.
                moveTask(actor.orgId, t, t.dueDate, daysBetween(next.dateValue, t.dueDate))
              : moveTask(actor.orgId, t, addDays(next.dateValue, t.dueOffsetDays ?? 0), t.dueOffsetDays ?? 0),
          ),
        );
    }
  }
  return { keyDates: result, items };
}

/** The `Update` that sets a task's due date, its offset from the linked key date and its open-task index position. */
function moveTask(orgId: string, t: Task, dueDate: string, dueOffsetDays: number): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: { PK: `ORG#${orgId}#TXN#${t.transactionId}`, SK: `TASK#${t.id}` },
      UpdateExpression: 'SET dueDate = :d, dueOffsetDays = :o, GSI1SK = :g',
      ConditionExpression: 'attribute_exists(SK)',
      ExpressionAttributeValues: { ':d': dueDate, ':o': dueOffsetDays, ':g': openTaskIndex(orgId, { dueDate, id: t.id }).GSI1SK },
    },
  };
}

/**
 * Bulk upsert (spec: a type appears at most once per transaction; writing it again updates it).
 * @throws ValidationError when the same type is given twice, or the change is too large for one transaction
 * @throws NotFoundError when the deal does not exist in the organization
 */
export async function upsertKeyDates(actor: Actor, transactionId: string, changes: KeyDateChange[], now: Date): Promise<KeyDate[]> {
  const seen = new Map<string, number>();
  changes.forEach((c, i) => {
    if (seen.has(c.keyDateType)) throw new ValidationError({ [`keyDates[${i}].keyDateType`]: `duplicates keyDates[${seen.get(c.keyDateType)}]: a type appears at most once per transaction` });
    seen.set(c.keyDateType, i);
  });
  const deal = await getDeal(actor.orgId, transactionId);
  const { keyDates, items } = planKeyDateWrites(actor, deal, changes, now);
  await commit(actor, deal, items, now);
  return keyDates;
}

/**
 * Changes one existing key date.
 * @throws NotFoundError when the deal or that key date does not exist
 */
export async function updateKeyDate(actor: Actor, transactionId: string, keyDateType: string, change: Omit<KeyDateChange, 'keyDateType' | 'dateValue'> & { dateValue?: string | null }, now: Date): Promise<KeyDate> {
  const deal = await getDeal(actor.orgId, transactionId);
  const prev = deal.keyDates.find((k) => k.keyDateType === keyDateType);
  if (!prev) throw new NotFoundError('Key date');
  const { keyDates, items } = planKeyDateWrites(actor, deal, [{ ...change, keyDateType, dateValue: change.dateValue ?? prev.dateValue }], now);
  await commit(actor, deal, items, now);
  return keyDates[0];
}

async function commit(actor: Actor, deal: Deal, items: TransactItem[], now: Date) {
  if (!items.length) return;
  if (items.length + 1 > MAX_TRANSACT_ITEMS) throw new ValidationError({ keyDates: 'too many key dates and linked tasks change at once; send fewer key dates per request' });
  await transactWrite([touchTransaction(actor.orgId, deal, now), ...items], () => new NotFoundError('Transaction'));
}

/** A deal's key dates, soonest first. */
export async function listKeyDates(orgId: string, transactionId: string): Promise<KeyDate[]> {
  return (await getDeal(orgId, transactionId)).keyDates;
}

/**
 * Open key dates of all deals from `fromDate` to `fromDate + horizonDays` inclusive, soonest first (GSI1).
 * @param fromDate `YYYY-MM-DD`
 */
export async function listUpcomingKeyDates(orgId: string, fromDate: string, horizonDays: number, limit: number): Promise<(KeyDate & { daysUntil: number })[]> {
  const until = addDays(fromDate, horizonDays);
  const found: KeyDate[] = [];
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to',
        FilterExpression: 'attribute_not_exists(completedAt) OR completedAt = :null',
        ExpressionAttributeValues: { ':pk': gsi1.keyDates(orgId), ':from': fromDate, ':to': `${until}~`, ':null': null },
        ExclusiveStartKey,
      }),
    );
    found.push(...(out.Items ?? []).map(toKeyDate));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey && found.length < limit);
  return found.slice(0, limit).map((k) => ({ ...k, daysUntil: dayNumber(k.dateValue) - dayNumber(fromDate) }));
}

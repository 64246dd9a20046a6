/**
 * Key-date repository: the writes that set key dates on a deal together with the moves of the open tasks that
 * follow them (`linkedMilestoneName`) and one `key_date.updated` per change, and the reads (a deal's dates; the
 * upcoming dates of all deals on GSI1). The use cases that commit them are in shared/use-cases/key-dates.ts.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { gsi1 } from '#db/keys';
import { keyDatePut, toKeyDate, type KeyDate } from '#db/key-date-items';
import { openTaskIndex, taskKey, type Task } from '#db/task-items';
import { getDeal, type Deal } from '#db/transactions';
import type { TransactItem } from '#db/transact';
import { outboxPut, type Actor } from '#events/outbox';
import { addDays, dayNumber, daysBetween } from '#domain/calendar';

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
  /** Key-date puts, their events and the moves of linked tasks. */
  items: TransactItem[];
  /** The linked open tasks as they will be after the moves. */
  movedTasks: Task[];
}

/**
 * The writes that set key dates on `deal` and move their linked open tasks. Unchanged entries write
 * nothing and emit nothing.
 */
export function planKeyDateWrites(actor: Actor, deal: Pick<Deal, 'id' | 'address' | 'keyDates' | 'tasks'>, changes: KeyDateChange[], now: Date): KeyDateWrites {
  const existing = new Map(deal.keyDates.map((k) => [k.keyDateType, k]));
  const items: TransactItem[] = [];
  const result: KeyDate[] = [];
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
      result.push(prev);
      continue;
    }
    result.push(next);
    items.push(keyDatePut(actor.orgId, next));
    items.push(outboxPut(actor, 'key_date.updated', { transactionId: deal.id, keyDateType: next.keyDateType, dateValue: next.dateValue, previousValue: prev?.dateValue ?? null }, now));
    if (prev?.dateValue !== next.dateValue) {
      for (const t of deal.tasks.filter((x) => x.status === 'open' && x.linkedMilestoneName === next.keyDateType)) {
        const moved: Task =
          t.dueOffsetDays === null && t.dueDate
            ? // Dated before its key date existed: keep the date, remember the offset from now on.
              { ...t, dueOffsetDays: daysBetween(next.dateValue, t.dueDate) }
            : { ...t, dueDate: addDays(next.dateValue, t.dueOffsetDays ?? 0), dueOffsetDays: t.dueOffsetDays ?? 0 };
        items.push(moveTask(actor.orgId, moved, moved.dueDate!, moved.dueOffsetDays!));
        movedTasks.push(moved);
      }
    }
  }
  return { keyDates: result, items, movedTasks };
}

/** The `Update` that sets a task's due date, its offset from the linked key date and its open-task index position. */
function moveTask(orgId: string, t: Task, dueDate: string, dueOffsetDays: number): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: taskKey(orgId, t),
      UpdateExpression: 'SET dueDate = :d, dueOffsetDays = :o, GSI1SK = :g',
      ConditionExpression: 'attribute_exists(SK)',
      ExpressionAttributeValues: { ':d': dueDate, ':o': dueOffsetDays, ':g': openTaskIndex(orgId, { dueDate, id: t.id }).GSI1SK },
    },
  };
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

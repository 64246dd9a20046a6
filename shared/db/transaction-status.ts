/**
 * Changing a deal's status (spec "States and transitions": any status of the organization's vocabulary),
 * with its cascade, in one `TransactWriteItems`: the status, tasks the cascade creates, key dates it shifts
 * (moving their linked tasks), an activity entry, and the events `transaction.status_changed`,
 * `transaction.closed` (entering a `closed` status), `task.created` and `key_date.updated`.
 */
import { randomUUID } from 'node:crypto';
import { getDeal, touchTransaction, transactionItem, type Deal } from '#db/transactions';
import { getStatusVocabulary } from '#db/statuses';
import { planKeyDateWrites } from '#db/key-dates';
import { taskCreateItems, type Task } from '#db/task-items';
import { activityPut } from '#db/activity';
import { transactWrite, MAX_TRANSACT_ITEMS } from '#db/transact';
import { gsi2 } from '#db/keys';
import { outboxPut, type Actor } from '#events/outbox';
import { dateOf } from '#domain/calendar';
import { findStatus, planCascade } from '#domain/statuses';
import { NotFoundError, ValidationError } from '#http/errors';

export interface StatusChangeResult {
  transaction: Deal;
  changed: boolean;
  cascade: { tasksCreated: Task[]; keyDatesShifted: { keyDateType: string; from: string; to: string }[] };
}

/**
 * @throws ValidationError when `status` is not in the organization's vocabulary (fields.status lists it)
 * @throws NotFoundError when the deal is absent or another organization's
 */
export async function changeStatus(actor: Actor, transactionId: string, status: string, now: Date): Promise<StatusChangeResult> {
  const [vocabulary, deal] = await Promise.all([getStatusVocabulary(actor.orgId), getDeal(actor.orgId, transactionId)]);
  const def = findStatus(vocabulary, status);
  if (!def) throw new ValidationError({ status: `must be one of: ${vocabulary.map((s) => s.name).join(', ')}` });
  if (def.name === deal.status) return { transaction: deal, changed: false, cascade: { tasksCreated: [], keyDatesShifted: [] } };

  const today = dateOf(now);
  const plan = planCascade(def, Object.fromEntries(deal.keyDates.map((k) => [k.keyDateType, k.dateValue])), today);
  const shifted = planKeyDateWrites(
    actor,
    deal,
    plan.shifts.map((s) => ({ keyDateType: s.keyDateType, dateValue: s.to, source: 'status cascade', calculationNotes: `${s.note}: ${s.from} → ${s.to}` })),
    now,
  );
  const tasks: Task[] = plan.tasks.map((p) => ({
    id: randomUUID(),
    transactionId,
    title: p.title,
    description: p.description ?? null,
    dueDate: p.dueDate,
    priority: p.priority ?? null,
    assigneeUserId: null,
    linkedMilestoneName: p.linkedMilestoneName ?? null,
    dueOffsetDays: p.dueOffsetDays ?? null,
    status: 'open',
    completedAt: null,
    completedBy: null,
    completionNote: null,
    address: deal.address,
    createdAt: now.toISOString(),
    createdBy: actor.userId,
  }));
  // Reopening a closed deal clears closedAt; entering a closed status stamps it.
  const closedAt = plan.closes ? now.toISOString() : null;
  const updated: Deal = { ...deal, status: def.name, closedAt, updatedAt: now.toISOString() };
  const { put } = activityPut(actor.orgId, { transactionId, type: 'status_changed', summary: `Status changed from ${deal.status} to ${def.name}`, details: null, userId: actor.userId }, now);
  const items = [
    touchTransaction(actor.orgId, deal, now, {
      status: def.name,
      statusCategory: def.category,
      closedAt,
      searchText: transactionItem(actor.orgId, updated).searchText,
      GSI2PK: gsi2.transactionsByStatus(actor.orgId, def.name),
    }),
    put,
    outboxPut(actor, 'transaction.status_changed', { transactionId, previousStatus: deal.status, status: def.name }, now),
    ...(plan.closes ? [outboxPut(actor, 'transaction.closed', { transactionId, status: def.name, closedAt }, now)] : []),
    ...shifted.items,
    ...tasks.flatMap((t) => taskCreateItems(actor, t, now)),
  ];
  if (items.length > MAX_TRANSACT_ITEMS) throw new Error(`status cascade of ${items.length} writes exceeds one transaction`);
  await transactWrite(items, () => new NotFoundError('Transaction'));
  // Re-read rather than re-derive: tasks moved with shifted dates, new tasks sort among the old.
  return {
    transaction: await getDeal(actor.orgId, transactionId),
    changed: true,
    cascade: { tasksCreated: tasks, keyDatesShifted: plan.shifts.map(({ keyDateType, from, to }) => ({ keyDateType, from, to })) },
  };
}

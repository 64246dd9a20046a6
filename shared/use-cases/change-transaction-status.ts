/**
 * Changing a deal's status (spec "States and transitions": any status of the organization's vocabulary) with its
 * cascade, in one `TransactWriteItems`: the status, tasks the cascade creates, key dates it shifts (moving their
 * linked tasks), an activity entry, and the events `transaction.status_changed`, `transaction.closed` (entering a
 * `closed` status), `task.created` and `key_date.updated`.
 *
 * The commit is conditional on the deal being unchanged since it was read, so two concurrent changes cannot both
 * emit `transaction.status_changed` from the same previous status, nor both create the cascade's tasks: the
 * loser reads again and plans from the winner's state (setting the status the deal now has is a no-op). The
 * response is derived from the read and the plan, not read back.
 */
import { randomUUID } from 'node:crypto';
import { byDue, getDeal, RECENT_ACTIVITY, statusAttributes, touchTransaction, type Deal } from '#db/transactions';
import { getStatusVocabulary } from '#db/statuses';
import { keyDateWrites } from '#use-cases/key-date-writes';
import { followKeyDates } from '#use-cases/reminder-schedule';
import { newOpenTask, type Task } from '#db/task-items';
import { taskCreateItems } from '#use-cases/task-created';
import { activityPut } from '#db/activity';
import { transactWrite, MAX_TRANSACT_ITEMS } from '#db/transact';
import { outboxPut } from '#db/outbox';
import type { Actor } from '#events/outbox';
import { dateOf } from '#domain/calendar';
import { findStatus, planCascade, type StatusDefinition } from '#domain/statuses';
import { Conflict, InvalidInput } from '#domain/errors';
import { retryStale, StaleRead } from '#use-cases/optimistic';
import { dictOf } from '#domain/dict';

export interface StatusChangeResult {
  transaction: Deal;
  changed: boolean;
  cascade: { tasksCreated: Task[]; keyDatesShifted: { keyDateType: string; from: string; to: string }[] };
}

/**
 * @param status a status name of the organization's vocabulary (matched case-insensitively)
 * @throws InvalidInput when `status` is not in the vocabulary (`fields.status` lists it)
 * @throws NotFound when the deal is absent or another organization's
 * @throws Conflict when the deal kept changing under every attempt
 */
export async function changeTransactionStatus(actor: Actor, transactionId: string, status: string, now: Date): Promise<StatusChangeResult> {
  const vocabulary = await getStatusVocabulary(actor.orgId);
  const def = findStatus(vocabulary, status);
  if (!def) throw new InvalidInput({ status: `must be one of: ${vocabulary.map((s) => s.name).join(', ')}` });
  return retryStale(
    async () => applyStatus(actor, await getDeal(actor.orgId, transactionId), def, now),
    () => new Conflict('The transaction kept changing while its status was set; retry.'),
  );
}

/** One attempt: plan from `deal` as read, commit if it is unchanged. @throws StaleRead */
async function applyStatus(actor: Actor, deal: Deal, def: StatusDefinition, now: Date): Promise<StatusChangeResult> {
  if (def.name === deal.status) return { transaction: deal, changed: false, cascade: { tasksCreated: [], keyDatesShifted: [] } };

  const plan = planCascade(def, dictOf(deal.keyDates.map((k) => [k.keyDateType, k.dateValue])), dateOf(now));
  const shifted = keyDateWrites(
    actor,
    deal,
    plan.shifts.map((s) => ({ keyDateType: s.keyDateType, dateValue: s.to, source: 'status cascade', calculationNotes: `${s.note}: ${s.from} → ${s.to}` })),
    now,
  );
  const tasks: Task[] = plan.tasks.map((p) =>
    newOpenTask(deal, actor, now, {
      id: randomUUID(),
      transactionId: deal.id,
      title: p.title,
      description: p.description ?? null,
      dueDate: p.dueDate,
      priority: p.priority ?? null,
      assigneeUserId: null,
      linkedMilestoneName: p.linkedMilestoneName ?? null,
      dueOffsetDays: p.dueOffsetDays ?? null,
    }),
  );
  // Reopening a closed deal clears closedAt; entering a closed status stamps it.
  const closedAt = plan.closes ? now.toISOString() : null;
  const { entry, put } = activityPut(actor.orgId, { transactionId: deal.id, type: 'status_changed', summary: `Status changed from ${deal.status} to ${def.name}`, details: null, userId: actor.userId }, now);
  const head = { ...deal, status: def.name, closedAt, updatedAt: now.toISOString(), version: deal.version + 1 };
  const items = [
    touchTransaction(actor.orgId, deal, now, {
      expectedVersion: deal.version,
      set: statusAttributes(actor.orgId, head, def.category),
    }),
    put,
    outboxPut(actor, 'transaction.status_changed', { transactionId: deal.id, previousStatus: deal.status, status: def.name }, now),
    ...(plan.closes ? [outboxPut(actor, 'transaction.closed', { transactionId: deal.id, status: def.name, closedAt }, now)] : []),
    ...shifted.items,
    ...tasks.flatMap((t) => taskCreateItems(actor, t, now)),
  ];
  if (items.length > MAX_TRANSACT_ITEMS) throw new Error(`status cascade of ${items.length} writes exceeds one transaction`);
  await transactWrite(items, (index) => (index === 0 ? new StaleRead() : new Conflict('A task or key date of the transaction changed meanwhile; retry.')));
  await followKeyDates(actor.orgId, deal.reminders, shifted.keyDates, now);

  const moved = new Map(shifted.movedTasks.map((t) => [t.id, t]));
  const keyDates = new Map(deal.keyDates.map((k) => [k.keyDateType, k]));
  for (const k of shifted.keyDates) keyDates.set(k.keyDateType, k);
  return {
    transaction: {
      ...head,
      keyDates: [...keyDates.values()].sort((a, b) => a.dateValue.localeCompare(b.dateValue)),
      tasks: [...deal.tasks.map((t) => moved.get(t.id) ?? t), ...tasks].sort(byDue),
      recentActivity: [entry, ...deal.recentActivity].slice(0, RECENT_ACTIVITY),
    },
    changed: true,
    cascade: { tasksCreated: tasks, keyDatesShifted: plan.shifts.map(({ keyDateType, from, to }) => ({ keyDateType, from, to })) },
  };
}

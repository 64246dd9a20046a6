/**
 * Task items. A task lives in its deal's item collection (`SK = TASK#<taskId>`), so reading a deal is one
 * query; a reference item `PK = ORG#<orgId>#TASK#<taskId>`, `SK = TASK` (written in the same transaction)
 * finds the deal from a task id, and its partition also holds the task's comments. While open, a task is
 * in the sparse GSI1 `ORG#<orgId>#OPENTASKS` / `<dueDate>#<taskId>` and in its assignee's sparse GSI2
 * `ORG#<orgId>#OPENTASKS#<userId or ->` / `<dueDate>#<taskId>`, so both lists read only open tasks.
 */
import { tableName } from '#db/client';
import { gsi1, gsi2, taskPk, txnPk } from '#db/keys';
import type { Actor } from '#events/outbox';

export interface Task {
  id: string;
  transactionId: string;
  title: string;
  description: string | null;
  /** Calendar date `YYYY-MM-DD` (a date-time's date part is kept), or null. */
  dueDate: string | null;
  priority: number | null;
  assigneeUserId: string | null;
  /** Key-date type the task follows; its due date is that date + `dueOffsetDays`. */
  linkedMilestoneName: string | null;
  dueOffsetDays: number | null;
  status: 'open' | 'completed';
  completedAt: string | null;
  completedBy: string | null;
  completionNote: string | null;
  address: string;
  createdAt: string;
  createdBy: string | null;
}

/** What a new task says; {@link newOpenTask} sets the rest. */
export type NewTaskFields = Pick<Task, 'id' | 'transactionId' | 'title' | 'description' | 'dueDate' | 'priority' | 'assigneeUserId' | 'linkedMilestoneName' | 'dueOffsetDays'>;

/** A new open task on `deal`, created by `actor` at `now` (status, completion and audit fields set here). */
export function newOpenTask(deal: { address: string }, actor: Actor, now: Date, fields: NewTaskFields): Task {
  return { ...fields, status: 'open', completedAt: null, completedBy: null, completionNote: null, address: deal.address, createdAt: now.toISOString(), createdBy: actor.userId };
}

const NO_DUE_DATE = '9999-12-31';

/** Open-task index entries, of the organization and of the assignee (absent once completed: the indexes are sparse). */
export const openTaskIndex = (orgId: string, t: Pick<Task, 'dueDate' | 'id' | 'assigneeUserId'>) => ({
  GSI1PK: gsi1.openTasks(orgId),
  GSI1SK: `${t.dueDate ?? NO_DUE_DATE}#${t.id}`,
  GSI2PK: gsi2.openTasksOf(orgId, t.assigneeUserId),
  GSI2SK: `${t.dueDate ?? NO_DUE_DATE}#${t.id}`,
});

export function taskItem(orgId: string, t: Task) {
  return {
    ...taskKey(orgId, t),
    entity: 'Task',
    orgId,
    ...t,
    ...(t.status === 'open' ? openTaskIndex(orgId, t) : {}),
  };
}

/** Key of a task in its deal's collection. */
export const taskKey = (orgId: string, t: Pick<Task, 'transactionId' | 'id'>) => ({ PK: txnPk(orgId, t.transactionId), SK: `TASK#${t.id}` });

/** Key of a task's reference item (finds the deal from the task id). */
export const taskRefKey = (orgId: string, taskId: string) => ({ PK: taskPk(orgId, taskId), SK: 'TASK' });

/** The writes that create a task: the task (conditional on its absence) and its reference item. */
export function taskPuts(orgId: string, t: Task) {
  return [
    { Put: { TableName: tableName(), Item: taskItem(orgId, t), ConditionExpression: 'attribute_not_exists(SK)' } },
    { Put: { TableName: tableName(), Item: { ...taskRefKey(orgId, t.id), entity: 'TaskRef', orgId, transactionId: t.transactionId } } },
  ];
}

/** The `Update` that moves an open task to `t.dueDate` with `t.dueOffsetDays` (and its open-task index position). */
export function taskMoveUpdate(orgId: string, t: Task) {
  return {
    Update: {
      TableName: tableName(),
      Key: taskKey(orgId, t),
      UpdateExpression: 'SET dueDate = :d, dueOffsetDays = :o, GSI1SK = :g, GSI2SK = :g',
      ConditionExpression: 'attribute_exists(SK)',
      ExpressionAttributeValues: { ':d': t.dueDate, ':o': t.dueOffsetDays, ':g': openTaskIndex(orgId, t).GSI1SK },
    },
  };
}

export function toTask(item: Record<string, any>): Task {
  const { id, transactionId, title, description, dueDate, priority, assigneeUserId, linkedMilestoneName, dueOffsetDays, status, completedAt, completedBy, completionNote, address, createdAt, createdBy } = item;
  return {
    id,
    transactionId,
    title,
    description: description ?? null,
    dueDate: dueDate ?? null,
    priority: priority ?? null,
    assigneeUserId: assigneeUserId ?? null,
    linkedMilestoneName: linkedMilestoneName ?? null,
    dueOffsetDays: dueOffsetDays ?? null,
    status,
    completedAt: completedAt ?? null,
    completedBy: completedBy ?? null,
    completionNote: completionNote ?? null,
    address,
    createdAt,
    createdBy: createdBy ?? null,
  };
}

/** A task being created, with its `task.created`: shared by every use case that creates tasks. */
import { taskPuts, type Task } from '#db/task-items';
import { outboxPut } from '#db/outbox';
import type { Actor } from '#events/outbox';

/** The writes that create task `t` (see `taskPuts`) with its `task.created`, for the caller's transaction. */
export function taskCreateItems(actor: Actor, t: Task, now: Date) {
  return [
    ...taskPuts(actor.orgId, t),
    outboxPut(actor, 'task.created', { taskId: t.id, transactionId: t.transactionId, title: t.title, dueDate: t.dueDate, assigneeUserId: t.assigneeUserId ?? null }, now),
  ];
}

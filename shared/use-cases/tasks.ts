/**
 * Task use cases (spec "Task"): create (following a key date when linked; committed with the deal's touch, on
 * condition that the deal is unchanged since it was read), assign to a member, complete once,
 * bulk delete, and the comment thread where only a comment's author may delete it. Each change commits with
 * its event (`task.created`, `task.completed`) in one `TransactWriteItems`.
 */
import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { getDeal, touchTransaction } from '#db/transactions';
import { newOpenTask, type Task } from '#db/task-items';
import { taskCreateItems } from '#use-cases/task-created';
import { assignTaskUpdate, commentDeletes, commentPuts, completeTaskUpdate, deleteTaskComments, findCommentRef, findTaskDeals, getTask, listComments, taskDeletes, type TaskComment } from '#db/tasks';
import { isMember } from '#db/orgs';
import { transactWrite } from '#db/transact';
import { outboxPut } from '#db/outbox';
import type { Actor } from '#events/outbox';
import { daysBetween } from '#domain/calendar';
import { Conflict, Forbidden, InvalidInput, NotFound } from '#domain/errors';
import { retryStale, StaleRead } from '#use-cases/optimistic';

export interface NewTask {
  title: string;
  description?: string | null;
  /** `YYYY-MM-DD` or an ISO date-time (its date part is kept). */
  dueDate?: string | null;
  priority?: number | null;
  assigneeUserId?: string | null;
  linkedMilestoneName?: string | null;
}

/** @throws InvalidInput naming `field` when `userId` is not a member of the organization */
async function assertMember(orgId: string, userId: string, field = 'assigneeUserId'): Promise<void> {
  if (!(await isMember(orgId, userId))) throw new InvalidInput({ [field]: 'is not a member of this organization' });
}

/**
 * Creates a task on a deal. With `linkedMilestoneName` naming a key date of the deal, the task follows it:
 * due on that date (or `dueDate`, kept as an offset from it) and moved when the date moves.
 * @throws NotFound for a missing deal; InvalidInput for an assignee who is not a member
 */
export async function createTask(actor: Actor, transactionId: string, input: NewTask, now: Date): Promise<Task> {
  if (input.assigneeUserId) await assertMember(actor.orgId, input.assigneeUserId);
  return retryStale(async () => {
    const deal = await getDeal(actor.orgId, transactionId);
    const linked = input.linkedMilestoneName ? deal.keyDates.find((k) => k.keyDateType === input.linkedMilestoneName) : undefined;
    const given = input.dueDate ? input.dueDate.slice(0, 10) : null;
    const dueDate = given ?? linked?.dateValue ?? null;
    const task = newOpenTask(deal, actor, now, {
      id: randomUUID(),
      transactionId,
      title: input.title,
      description: input.description ?? null,
      dueDate,
      priority: input.priority ?? null,
      assigneeUserId: input.assigneeUserId ?? null,
      linkedMilestoneName: input.linkedMilestoneName ?? null,
      // Offset from the linked key date; unknown (null) while the deal lacks that date and a due date was given.
      dueOffsetDays: linked && dueDate ? daysBetween(linked.dateValue, dueDate) : input.linkedMilestoneName && !given ? 0 : null,
    });
    // Conditional on the deal as read: a key date moved meanwhile would leave a linked task on the old date.
    await transactWrite([touchTransaction(actor.orgId, deal, now, { expectedVersion: deal.version }), ...taskCreateItems(actor, task, now)], () => new StaleRead());
    return task;
  }, () => new Conflict('The transaction kept changing while the task was created; retry.'));
}

/**
 * Assigns (or, with null, unassigns) a task; a new assignee gets a notification (internal event `task.assigned`).
 * @throws NotFound for a missing task; InvalidInput for an assignee who is not a member
 */
export async function assignTask(actor: Actor, taskId: string, assigneeUserId: string | null, now = new Date()): Promise<Task> {
  const task = await getTask(actor.orgId, taskId);
  if (assigneeUserId) await assertMember(actor.orgId, assigneeUserId);
  // A new assignee is told (an internal event: notifications only, no webhook); re-assigning the same one is not news.
  const assigned =
    assigneeUserId && assigneeUserId !== task.assigneeUserId
      ? [outboxPut(actor, 'task.assigned', { taskId, transactionId: task.transactionId, title: task.title, dueDate: task.dueDate, assigneeUserId, previousAssigneeUserId: task.assigneeUserId }, now)]
      : [];
  await transactWrite([assignTaskUpdate(actor.orgId, task, assigneeUserId), ...assigned], () => new NotFound('Task'));
  return { ...task, assigneeUserId };
}

/**
 * Marks a task complete and emits `task.completed`. Completing a completed task changes nothing and emits nothing.
 * @throws NotFound for a missing task
 */
export async function completeTask(actor: Actor, taskId: string, note: string | null, now: Date): Promise<Task> {
  const task = await getTask(actor.orgId, taskId);
  if (task.status === 'completed') return task;
  const done: Task = { ...task, status: 'completed', completedAt: now.toISOString(), completedBy: actor.userId, completionNote: note };
  try {
    await transactWrite(
      [completeTaskUpdate(actor.orgId, done), outboxPut(actor, 'task.completed', { taskId, transactionId: task.transactionId, title: task.title, completedAt: done.completedAt }, now)],
      () => new TaskNotOpen(),
    );
  } catch (err) {
    if (!(err instanceof TaskNotOpen)) throw err;
    // Completed (or deleted) meanwhile: report the task as it now is, with no second event.
    return getTask(actor.orgId, taskId);
  }
  return done;
}

class TaskNotOpen extends Error {}

/**
 * Permanently deletes tasks and their comments. Ids the organization does not have are reported in `notFound`
 * (never an error, never a disclosure).
 */
export async function deleteTasks(actor: Actor, taskIds: string[]): Promise<{ deleted: string[]; notFound: string[] }> {
  const unique = [...new Set(taskIds)];
  const dealOf = await findTaskDeals(actor.orgId, unique);
  const deleted: string[] = [];
  for (const id of unique) {
    const transactionId = dealOf.get(id);
    if (!transactionId) continue;
    await transactWrite(taskDeletes(actor.orgId, { transactionId, id }));
    await deleteTaskComments(actor.orgId, id);
    deleted.push(id);
  }
  return { deleted, notFound: unique.filter((id) => !dealOf.has(id)) };
}

/** Adds a comment authored by the caller. @throws NotFound for a missing task */
export async function addTaskComment(actor: Actor, taskId: string, content: string, now: Date): Promise<TaskComment> {
  await getTask(actor.orgId, taskId);
  const c: TaskComment = { id: randomUUID(), taskId, content, authorUserId: actor.userId, createdAt: now.toISOString() };
  await transactWrite(commentPuts(actor.orgId, c));
  return c;
}

/** A task's comment thread, oldest first. @throws NotFound for a missing task */
export async function listTaskComments(orgId: string, taskId: string): Promise<TaskComment[]> {
  await getTask(orgId, taskId);
  return listComments(orgId, taskId);
}

/**
 * Deletes a comment; only its author may (spec "Task").
 * @throws NotFound when absent; Forbidden when the caller is not the author
 */
export async function deleteTaskComment(actor: Actor, taskId: string, commentId: string): Promise<void> {
  const ref = await findCommentRef(actor.orgId, taskId, commentId);
  if (!ref) throw new NotFound('Comment');
  if (ref.authorUserId !== actor.userId) throw new Forbidden("Only the comment's author can delete it.");
  try {
    await transactWrite(commentDeletes(actor.orgId, taskId, commentId, ref.commentSk, actor.userId), () => new NotFound('Comment'));
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) throw new NotFound('Comment');
    throw err;
  }
}

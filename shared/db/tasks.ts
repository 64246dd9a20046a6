/**
 * Task operations: create (with `task.created`), assign, complete (with `task.completed`), bulk delete,
 * the open-task lists, and the comment thread (`PK = ORG#<orgId>#TASK#<taskId>`, `SK = COMMENT#<iso>#<id>`).
 */
import { randomUUID } from 'node:crypto';
import { BatchGetCommand, DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, tableName } from '#db/client';
import { gsi1, taskPk, timeSk, txnPk } from '#db/keys';
import { taskCreateItems, taskRefKey, toTask, type Task } from '#db/task-items';
import { getDeal, queryAll } from '#db/transactions';
import { transactWrite } from '#db/transact';
import { outboxPut, type Actor } from '#events/outbox';
import { daysBetween } from '#domain/calendar';
import { NotFoundError, ValidationError } from '#http/errors';

export interface NewTask {
  title: string;
  description?: string | null;
  /** `YYYY-MM-DD` or an ISO date-time (its date part is kept). */
  dueDate?: string | null;
  priority?: number | null;
  assigneeUserId?: string | null;
  linkedMilestoneName?: string | null;
}

/**
 * Creates a task on a deal. With `linkedMilestoneName` naming a key date of the deal, the task follows it:
 * due on that date (or `dueDate`, kept as an offset from it) and moved when the date moves.
 * @throws NotFoundError for a missing deal; ValidationError for an assignee who is not a member
 */
export async function createTask(actor: Actor, transactionId: string, input: NewTask, now: Date): Promise<Task> {
  const deal = await getDeal(actor.orgId, transactionId);
  if (input.assigneeUserId) await assertMember(actor.orgId, input.assigneeUserId);
  const linked = input.linkedMilestoneName ? deal.keyDates.find((k) => k.keyDateType === input.linkedMilestoneName) : undefined;
  const given = input.dueDate ? input.dueDate.slice(0, 10) : null;
  const dueDate = given ?? linked?.dateValue ?? null;
  const task: Task = {
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
    status: 'open',
    completedAt: null,
    completedBy: null,
    completionNote: null,
    address: deal.address,
    createdAt: now.toISOString(),
    createdBy: actor.userId,
  };
  await transactWrite(
    [{ ConditionCheck: { TableName: tableName(), Key: { PK: txnPk(actor.orgId, transactionId), SK: 'TXN' }, ConditionExpression: 'attribute_exists(PK)' } }, ...taskCreateItems(actor, task, now)],
    () => new NotFoundError('Transaction'),
  );
  return task;
}

/** The task with id `taskId`. @throws NotFoundError */
export async function getTask(orgId: string, taskId: string): Promise<Task> {
  const ref = await db().send(new GetCommand({ TableName: tableName(), Key: taskRefKey(orgId, taskId) }));
  if (!ref.Item) throw new NotFoundError('Task');
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: txnPk(orgId, ref.Item.transactionId), SK: `TASK#${taskId}` } }));
  if (!out.Item) throw new NotFoundError('Task');
  return toTask(out.Item);
}

/** @throws ValidationError when `userId` is not a member of the organization */
export async function assertMember(orgId: string, userId: string): Promise<void> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: `ORG#${orgId}`, SK: `USER#${userId}` }, ProjectionExpression: 'userId' }));
  if (!out.Item) throw new ValidationError({ assigneeUserId: 'is not a member of this organization' });
}

const taskKey = (orgId: string, t: Pick<Task, 'transactionId' | 'id'>) => ({ PK: txnPk(orgId, t.transactionId), SK: `TASK#${t.id}` });

/** Assigns (or, with null, unassigns) a task. */
export async function assignTask(actor: Actor, taskId: string, assigneeUserId: string | null): Promise<Task> {
  const task = await getTask(actor.orgId, taskId);
  if (assigneeUserId) await assertMember(actor.orgId, assigneeUserId);
  await transactWrite(
    [{ Update: { TableName: tableName(), Key: taskKey(actor.orgId, task), UpdateExpression: 'SET assigneeUserId = :a', ConditionExpression: 'attribute_exists(SK)', ExpressionAttributeValues: { ':a': assigneeUserId } } }],
    () => new NotFoundError('Task'),
  );
  return { ...task, assigneeUserId };
}

/**
 * Marks a task complete and emits `task.completed`. Completing a completed task changes nothing and
 * emits nothing.
 */
export async function completeTask(actor: Actor, taskId: string, note: string | null, now: Date): Promise<Task> {
  const task = await getTask(actor.orgId, taskId);
  if (task.status === 'completed') return task;
  const done: Task = { ...task, status: 'completed', completedAt: now.toISOString(), completedBy: actor.userId, completionNote: note };
  await transactWrite(
    [
      {
        Update: {
          TableName: tableName(),
          Key: taskKey(actor.orgId, task),
          UpdateExpression: 'SET #s = :done, completedAt = :at, completedBy = :by, completionNote = :note REMOVE GSI1PK, GSI1SK',
          ConditionExpression: '#s = :open',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':done': 'completed', ':open': 'open', ':at': done.completedAt, ':by': actor.userId, ':note': note },
        },
      },
      outboxPut(actor, 'task.completed', { taskId, transactionId: task.transactionId, title: task.title, completedAt: done.completedAt }, now),
    ],
    () => new NotFoundError('Task'),
  );
  return done;
}

/**
 * Permanently deletes tasks and their comments. Ids the organization does not have are reported in
 * `notFound` (never an error, never a disclosure).
 */
export async function deleteTasks(actor: Actor, taskIds: string[]): Promise<{ deleted: string[]; notFound: string[] }> {
  const unique = [...new Set(taskIds)];
  const refs = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: unique.map((id) => taskRefKey(actor.orgId, id)) } } }));
  const byTask = new Map((refs.Responses?.[tableName()] ?? []).map((r) => [String(r.PK).split('#TASK#')[1], String(r.transactionId)]));
  const deleted: string[] = [];
  for (const id of unique) {
    const transactionId = byTask.get(id);
    if (!transactionId) continue;
    const comments = await queryAll({ TableName: tableName(), KeyConditionExpression: 'PK = :pk AND begins_with(SK, :c)', ExpressionAttributeValues: { ':pk': taskPk(actor.orgId, id), ':c': 'COMMENT#' }, ProjectionExpression: 'PK, SK' });
    await transactWrite([
      { Delete: { TableName: tableName(), Key: { PK: txnPk(actor.orgId, transactionId), SK: `TASK#${id}` } } },
      { Delete: { TableName: tableName(), Key: taskRefKey(actor.orgId, id) } },
    ]);
    for (const c of comments) await db().send(new DeleteCommand({ TableName: tableName(), Key: { PK: c.PK, SK: c.SK } }));
    deleted.push(id);
  }
  return { deleted, notFound: unique.filter((id) => !byTask.has(id)) };
}

/**
 * Open tasks, soonest due first (undated last): of one deal (its collection) or of all deals (GSI1).
 * @param assignedTo a user id, or `me` for the calling user, or `unassigned`
 */
export async function listOpenTasks(actor: Actor, opts: { transactionId?: string; assignedTo?: string; limit: number }): Promise<Task[]> {
  const assignee = opts.assignedTo === 'me' ? actor.userId : opts.assignedTo;
  const keep = (t: Task) => t.status === 'open' && (assignee === undefined || (assignee === 'unassigned' ? t.assigneeUserId === null : t.assigneeUserId === assignee));
  if (opts.transactionId) {
    const deal = await getDeal(actor.orgId, opts.transactionId);
    return deal.tasks.filter(keep).slice(0, opts.limit);
  }
  const found: Task[] = [];
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const out = await db().send(new QueryCommand({ TableName: tableName(), IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': gsi1.openTasks(actor.orgId) }, ExclusiveStartKey }));
    found.push(...(out.Items ?? []).map(toTask).filter(keep));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey && found.length < opts.limit);
  return found.slice(0, opts.limit);
}

export interface TaskComment {
  id: string;
  taskId: string;
  content: string;
  authorUserId: string | null;
  createdAt: string;
}

const toComment = ({ id, taskId, content, authorUserId, createdAt }: Record<string, any>): TaskComment => ({ id, taskId, content, authorUserId: authorUserId ?? null, createdAt });

export async function listComments(orgId: string, taskId: string): Promise<TaskComment[]> {
  await getTask(orgId, taskId);
  const items = await queryAll({ TableName: tableName(), KeyConditionExpression: 'PK = :pk AND begins_with(SK, :c)', ExpressionAttributeValues: { ':pk': taskPk(orgId, taskId), ':c': 'COMMENT#' } });
  return items.map(toComment);
}

export async function addComment(actor: Actor, taskId: string, content: string, now: Date): Promise<TaskComment> {
  await getTask(actor.orgId, taskId);
  const c: TaskComment = { id: randomUUID(), taskId, content, authorUserId: actor.userId, createdAt: now.toISOString() };
  // The CREF item finds a comment (and its author) by id, without reading the thread.
  await transactWrite([
    { Put: { TableName: tableName(), Item: { PK: taskPk(actor.orgId, taskId), SK: timeSk('COMMENT', c.createdAt, c.id), entity: 'TaskComment', orgId: actor.orgId, ...c } } },
    { Put: { TableName: tableName(), Item: { PK: taskPk(actor.orgId, taskId), SK: `CREF#${c.id}`, entity: 'TaskCommentRef', orgId: actor.orgId, commentSk: timeSk('COMMENT', c.createdAt, c.id), authorUserId: actor.userId } } },
  ]);
  return c;
}

/** Thrown when a caller other than the author deletes a comment. */
export class NotCommentAuthor extends Error {}

/**
 * Deletes a comment; only its author may (spec "Task").
 * @throws NotFoundError when absent; NotCommentAuthor when the caller is not the author
 */
export async function deleteComment(actor: Actor, taskId: string, commentId: string): Promise<void> {
  const ref = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: taskPk(actor.orgId, taskId), SK: `CREF#${commentId}` } }));
  if (!ref.Item) throw new NotFoundError('Comment');
  if (ref.Item.authorUserId !== actor.userId) throw new NotCommentAuthor();
  try {
    await transactWrite([
      { Delete: { TableName: tableName(), Key: { PK: taskPk(actor.orgId, taskId), SK: ref.Item.commentSk }, ConditionExpression: 'authorUserId = :me', ExpressionAttributeValues: { ':me': actor.userId } } },
      { Delete: { TableName: tableName(), Key: { PK: taskPk(actor.orgId, taskId), SK: `CREF#${commentId}` } } },
    ], () => new NotFoundError('Comment'));
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) throw new NotFoundError('Comment');
    throw err;
  }
}

/**
 * Task repository: reads of tasks (by id through their reference item, open tasks across deals on GSI1) and
 * the writes that change one (assign, complete, delete), plus the comment thread in the task's own partition
 * (`PK = ORG#<orgId>#TASK#<taskId>`, `SK = COMMENT#<iso>#<id>`, with a `CREF#<id>` reference that finds a comment
 * and its author by id). Rules about who may do what live in shared/use-cases/tasks.ts.
 */
import { BatchGetCommand, DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { gsi1, gsi2, taskPk, timeSk } from '#db/keys';
import { openTaskIndex, taskKey, taskRefKey, toTask, type Task } from '#db/task-items';
import { getDeal, queryAll } from '#db/transactions';
import type { TransactItem } from '#db/transact';
import { NotFound } from '#domain/errors';

/**
 * The task with id `taskId` (two `GetItem`s: its reference, then the task in its deal's collection).
 * @throws NotFound when absent or another organization's
 */
export async function getTask(orgId: string, taskId: string): Promise<Task> {
  const ref = await db().send(new GetCommand({ TableName: tableName(), Key: taskRefKey(orgId, taskId) }));
  if (!ref.Item) throw new NotFound('Task');
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: taskKey(orgId, { transactionId: ref.Item.transactionId, id: taskId }) }));
  if (!out.Item) throw new NotFound('Task');
  return toTask(out.Item);
}

/**
 * The `Update` that sets (or, with null, clears) a task's assignee, moving an open task to the assignee's open-task
 * index; fails when the task is gone. (A task completed meanwhile may keep an index entry; readers drop tasks that are
 * not open.)
 */
export function assignTaskUpdate(orgId: string, t: Pick<Task, 'transactionId' | 'id' | 'status' | 'dueDate'>, assigneeUserId: string | null): TransactItem {
  const open = t.status === 'open';
  const entry = openTaskIndex(orgId, { ...t, assigneeUserId });
  return {
    Update: {
      TableName: tableName(),
      Key: taskKey(orgId, t),
      UpdateExpression: open ? 'SET assigneeUserId = :a, GSI2PK = :g, GSI2SK = :gs' : 'SET assigneeUserId = :a',
      ConditionExpression: 'attribute_exists(SK)',
      ExpressionAttributeValues: { ':a': assigneeUserId, ...(open ? { ':g': entry.GSI2PK, ':gs': entry.GSI2SK } : {}) },
    },
  };
}

/** The `Update` that completes an open task and takes it off the open-task index; fails unless it is open. */
export const completeTaskUpdate = (orgId: string, done: Task): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: taskKey(orgId, done),
    UpdateExpression: 'SET #s = :done, completedAt = :at, completedBy = :by, completionNote = :note REMOVE GSI1PK, GSI1SK, GSI2PK, GSI2SK',
    ConditionExpression: '#s = :open',
    ExpressionAttributeNames: { '#s': 'status' },
    ExpressionAttributeValues: { ':done': 'completed', ':open': 'open', ':at': done.completedAt, ':by': done.completedBy, ':note': done.completionNote },
  },
});

/** The deal of each task id the organization has (`BatchGetItem` of the reference items; at most 100 ids). */
export async function findTaskDeals(orgId: string, taskIds: string[]): Promise<Map<string, string>> {
  if (!taskIds.length) return new Map();
  const refs = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: taskIds.map((id) => taskRefKey(orgId, id)) } } }));
  const wanted = new Map(taskIds.map((id) => [taskRefKey(orgId, id).PK, id]));
  return new Map((refs.Responses?.[tableName()] ?? []).map((r) => [wanted.get(String(r.PK))!, String(r.transactionId)]));
}

/** The `Delete`s of a task and its reference item. */
export const taskDeletes = (orgId: string, t: Pick<Task, 'transactionId' | 'id'>): TransactItem[] => [
  { Delete: { TableName: tableName(), Key: taskKey(orgId, t) } },
  { Delete: { TableName: tableName(), Key: taskRefKey(orgId, t.id) } },
];

/**
 * Open tasks, soonest due first (undated last): of one deal (its collection), of all deals (sparse GSI1) or of one
 * assignee (sparse GSI2). Reads pages of `limit` items, so the items read are about `limit` whatever the
 * organization's size.
 * @param assignedTo a user id, or `me` for the calling user, or `unassigned`
 */
export async function listOpenTasks(actor: { orgId: string; userId: string | null }, opts: { transactionId?: string; assignedTo?: string; limit: number }): Promise<Task[]> {
  const assignee = opts.assignedTo === 'me' ? actor.userId : opts.assignedTo;
  const keep = (t: Task) => t.status === 'open' && (assignee === undefined || (assignee === 'unassigned' ? t.assigneeUserId === null : t.assigneeUserId === assignee));
  if (opts.transactionId) {
    const deal = await getDeal(actor.orgId, opts.transactionId);
    return deal.tasks.filter(keep).slice(0, opts.limit);
  }
  const index =
    assignee === undefined
      ? { IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': gsi1.openTasks(actor.orgId) } }
      : { IndexName: 'GSI2', KeyConditionExpression: 'GSI2PK = :pk', ExpressionAttributeValues: { ':pk': gsi2.openTasksOf(actor.orgId, assignee === 'unassigned' ? null : assignee) } };
  const found: Task[] = [];
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const out = await db().send(new QueryCommand({ TableName: tableName(), ...index, Limit: opts.limit - found.length, ExclusiveStartKey }));
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

/** A task's comments, oldest first. */
export async function listComments(orgId: string, taskId: string): Promise<TaskComment[]> {
  const items = await queryAll({ TableName: tableName(), KeyConditionExpression: 'PK = :pk AND begins_with(SK, :c)', ExpressionAttributeValues: { ':pk': taskPk(orgId, taskId), ':c': 'COMMENT#' } });
  return items.map(toComment);
}

/** Deletes every comment item (and comment reference) of a task: what remains after the task itself is deleted. */
export async function deleteTaskComments(orgId: string, taskId: string): Promise<void> {
  const items = await queryAll({ TableName: tableName(), KeyConditionExpression: 'PK = :pk AND SK BETWEEN :c AND :z', ExpressionAttributeValues: { ':pk': taskPk(orgId, taskId), ':c': 'COMMENT#', ':z': 'CREF$' }, ProjectionExpression: 'PK, SK' });
  for (const i of items) await db().send(new DeleteCommand({ TableName: tableName(), Key: { PK: i.PK, SK: i.SK } }));
}

/** The `Put`s of a new comment and its reference item (which finds it, and its author, by id). */
export function commentPuts(orgId: string, c: TaskComment): TransactItem[] {
  const sk = timeSk('COMMENT', c.createdAt, c.id);
  return [
    { Put: { TableName: tableName(), Item: { PK: taskPk(orgId, c.taskId), SK: sk, entity: 'TaskComment', orgId, ...c } } },
    { Put: { TableName: tableName(), Item: { PK: taskPk(orgId, c.taskId), SK: `CREF#${c.id}`, entity: 'TaskCommentRef', orgId, commentSk: sk, authorUserId: c.authorUserId } } },
  ];
}

/** A comment's reference: where it is and who wrote it, or undefined. */
export async function findCommentRef(orgId: string, taskId: string, commentId: string): Promise<{ commentSk: string; authorUserId: string | null } | undefined> {
  const ref = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: taskPk(orgId, taskId), SK: `CREF#${commentId}` } }));
  return ref.Item ? { commentSk: String(ref.Item.commentSk), authorUserId: ref.Item.authorUserId ?? null } : undefined;
}

/** The `Delete`s of a comment (conditional on its author, so a changed author cannot race) and its reference. */
export const commentDeletes = (orgId: string, taskId: string, commentId: string, commentSk: string, authorUserId: string | null): TransactItem[] => [
  { Delete: { TableName: tableName(), Key: { PK: taskPk(orgId, taskId), SK: commentSk }, ConditionExpression: 'authorUserId = :me', ExpressionAttributeValues: { ':me': authorUserId } } },
  { Delete: { TableName: tableName(), Key: { PK: taskPk(orgId, taskId), SK: `CREF#${commentId}` } } },
];

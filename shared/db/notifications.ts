/**
 * Notifications of team members and their devices (spec "Organization": notifications with an unread count; devices
 * registered for push). A notification is one item per member: `PK = ORG#<orgId>#USER#<userId>#NOTIFS`,
 * `SK = NOTIF#<createdAt>#<eventId>` (newest last; read backwards), written with a conditional put so a replayed
 * outbox record writes nothing twice. A device: `PK = ORG#<orgId>#USER#<userId>#DEVICES`, `SK = DEVICE#<installationId>`.
 */
import { createHash } from 'node:crypto';
import { paginateQuery, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { db, tableName } from '#db/client';
import { devicesPk, notificationsPk } from '#db/keys';
import type { NotificationDraft } from '#domain/notifications';

export interface Notification {
  id: string;
  type: string;
  title: string;
  body: string;
  transactionId: string | null;
  eventId: string;
  data: Record<string, unknown>;
  createdAt: string;
  readAt: string | null;
}

const notifPk = notificationsPk;
const devicePk = devicesPk;

/**
 * Stores `n` for `userId` (id = the event's id: one notification per event and member).
 * @returns false when it was already stored (a replayed event)
 */
export async function putNotification(orgId: string, userId: string, n: Notification): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { PK: notifPk(orgId, userId), SK: `NOTIF#${n.createdAt}#${n.eventId}`, entity: 'Notification', orgId, userId, ...n },
        ConditionExpression: 'attribute_not_exists(SK)',
      }),
    );
    return true;
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return false;
    throw err;
  }
}

/** The notification stored for an event and a draft. */
export const notificationOf = (draft: NotificationDraft, eventId: string, data: Record<string, unknown>, createdAt: string): Notification => ({
  id: eventId,
  type: draft.type,
  title: draft.title,
  body: draft.body,
  transactionId: draft.transactionId,
  eventId,
  data,
  createdAt,
  readAt: null,
});

/** The member's notifications, newest first. */
export async function listNotifications(orgId: string, userId: string, opts: { limit: number; unreadOnly: boolean }): Promise<Notification[]> {
  const found: Notification[] = [];
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :n)',
        FilterExpression: opts.unreadOnly ? 'readAt = :null' : undefined,
        ExpressionAttributeValues: { ':pk': notifPk(orgId, userId), ':n': 'NOTIF#', ...(opts.unreadOnly ? { ':null': null } : {}) },
        ScanIndexForward: false,
        Limit: Math.max(opts.limit, 25),
        ExclusiveStartKey,
      }),
    );
    for (const i of out.Items ?? []) found.push(notificationFrom(i));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey && found.length < opts.limit);
  return found.slice(0, opts.limit);
}

/** How many of the member's notifications are unread (a `COUNT` query; the items are never returned). */
export async function countUnread(orgId: string, userId: string): Promise<number> {
  let count = 0;
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :n)',
        FilterExpression: 'readAt = :null',
        ExpressionAttributeValues: { ':pk': notifPk(orgId, userId), ':n': 'NOTIF#', ':null': null },
        Select: 'COUNT',
        ExclusiveStartKey,
      }),
    );
    count += out.Count ?? 0;
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return count;
}

const notificationFrom = (i: Record<string, any>): Notification => ({
  id: i.id, type: i.type, title: i.title, body: i.body, transactionId: i.transactionId ?? null, eventId: i.eventId, data: i.data ?? {}, createdAt: i.createdAt, readAt: i.readAt ?? null,
});

/**
 * Sets `readAt` on one stored notification unless it is already read (the first `readAt` is kept: marking again
 * changes nothing). @returns the notification as it now is
 * @throws ConditionalCheckFailedException when the item does not exist
 */
async function setRead(orgId: string, userId: string, sk: string, at: string): Promise<Notification> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: notifPk(orgId, userId), SK: sk },
        UpdateExpression: 'SET readAt = :at',
        ConditionExpression: 'attribute_exists(SK) AND readAt = :null',
        ExpressionAttributeValues: { ':at': at, ':null': null },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return notificationFrom(out.Attributes ?? {});
  } catch (err) {
    // The item as it was (already read), in the low-level attribute-value form: the document client does not convert errors.
    const old = (err as { Item?: Parameters<typeof unmarshall>[0] }).Item;
    if ((err as Error).name === 'ConditionalCheckFailedException' && old) return notificationFrom(unmarshall(old));
    throw err;
  }
}

/**
 * Marks one of the member's notifications read. The id is not in the sort key (`NOTIF#<createdAt>#<eventId>`), so
 * the member's partition is read newest first, keys only, until it is found: one page for the recent ones a
 * client marks.
 * @returns the notification with its `readAt` (the first one when it was already read), or undefined when the
 *   member has no notification of that id (another member's or another organization's included)
 */
export async function markNotificationRead(orgId: string, userId: string, id: string, at: string): Promise<Notification | undefined> {
  const pages = paginateQuery(
    { client: db() },
    {
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :n)',
      FilterExpression: 'id = :id',
      ExpressionAttributeValues: { ':pk': notifPk(orgId, userId), ':n': 'NOTIF#', ':id': id },
      ProjectionExpression: 'SK',
      ScanIndexForward: false,
    },
  );
  for await (const page of pages) {
    const sk = page.Items?.[0]?.SK as string | undefined;
    if (!sk) continue;
    try {
      return await setRead(orgId, userId, sk, at);
    } catch (err) {
      // No old item: it was removed between the query and the update.
      if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    }
  }
  return undefined;
}

/**
 * Marks read every unread notification of the member created at or before `before` (ISO 8601 UTC; the sort key
 * bounds the read), in parallel updates of 25.
 * @returns how many were unread and are now read
 */
export async function markAllNotificationsRead(orgId: string, userId: string, before: string, at: string): Promise<number> {
  let marked = 0;
  const pages = paginateQuery(
    { client: db() },
    {
      TableName: tableName(),
      // `#` sorts before every character of an event id, so `NOTIF#<before>#~` ends after every item of that instant.
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      FilterExpression: 'readAt = :null',
      ExpressionAttributeValues: { ':pk': notifPk(orgId, userId), ':from': 'NOTIF#', ':to': `NOTIF#${before}#~`, ':null': null },
      ProjectionExpression: 'SK',
    },
  );
  for await (const page of pages) {
    const keys = (page.Items ?? []).map((i) => i.SK as string);
    for (let i = 0; i < keys.length; i += 25) {
      const done = await Promise.allSettled(keys.slice(i, i + 25).map((sk) => setRead(orgId, userId, sk, at)));
      for (const r of done) {
        // A notification marked meanwhile comes back with its own readAt, and counts as not marked here.
        if (r.status === 'fulfilled') marked += r.value.readAt === at ? 1 : 0;
        else if ((r.reason as Error).name !== 'ConditionalCheckFailedException') throw r.reason;
      }
    }
  }
  return marked;
}

/** A registered device. The push token is kept (it is the address push goes to) but never shown back. */
export interface Device {
  deviceId: string;
  userId: string;
  installationId: string;
  platform: string | null;
  appVersion: string | null;
  pushToken: string | null;
  capabilities: string[];
  permissions: Record<string, unknown>;
  registeredAt: string;
  updatedAt: string;
}

/** Id of a device: derived from the installation, so a refresh keeps it. */
export const deviceIdOf = (orgId: string, userId: string, installationId: string) => createHash('sha256').update(`${orgId}\n${userId}\n${installationId}`).digest('hex').slice(0, 32);

/**
 * Registers or refreshes a device (the first registration time is kept; a field given as null keeps its value).
 * @returns the device as stored and whether it is new
 */
export async function putDevice(orgId: string, d: Omit<Device, 'capabilities' | 'permissions'> & { capabilities: string[] | null; permissions: Record<string, unknown> | null }): Promise<{ device: Device; created: boolean }> {
  const existing = await db().send(
    new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk AND SK = :sk', ExpressionAttributeValues: { ':pk': devicePk(orgId, d.userId), ':sk': `DEVICE#${d.installationId}` } }),
  );
  const before = existing.Items?.[0] as Device | undefined;
  // A refresh that leaves a field out keeps what the device registered before.
  const device: Device = {
    ...d,
    platform: d.platform ?? before?.platform ?? null,
    appVersion: d.appVersion ?? before?.appVersion ?? null,
    pushToken: d.pushToken ?? before?.pushToken ?? null,
    capabilities: d.capabilities ?? before?.capabilities ?? [],
    permissions: d.permissions ?? before?.permissions ?? {},
    registeredAt: before?.registeredAt ?? d.registeredAt,
  };
  await db().send(new PutCommand({ TableName: tableName(), Item: { PK: devicePk(orgId, d.userId), SK: `DEVICE#${d.installationId}`, entity: 'Device', orgId, ...device } }));
  return { device, created: !before };
}

/** The member's devices that can receive push (a token is registered). */
export async function listPushDevices(orgId: string, userId: string): Promise<Device[]> {
  const out = await db().send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk AND begins_with(SK, :d)', ExpressionAttributeValues: { ':pk': devicePk(orgId, userId), ':d': 'DEVICE#' } }));
  return (out.Items ?? []).filter((i) => i.pushToken).map((i) => i as unknown as Device);
}

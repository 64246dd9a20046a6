/**
 * Notifications of team members and their devices (spec "Organization": notifications with an unread count; devices
 * registered for push). A notification is one item per member: `PK = ORG#<orgId>#USER#<userId>#NOTIFS`,
 * `SK = NOTIF#<createdAt>#<eventId>` (newest last; read backwards), written with a conditional put so a replayed
 * outbox record writes nothing twice. A device: `PK = ORG#<orgId>#USER#<userId>#DEVICES`, `SK = DEVICE#<installationId>`.
 */
import { createHash } from 'node:crypto';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
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
    for (const i of out.Items ?? []) found.push({ id: i.id, type: i.type, title: i.title, body: i.body, transactionId: i.transactionId ?? null, eventId: i.eventId, data: i.data ?? {}, createdAt: i.createdAt, readAt: i.readAt ?? null });
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

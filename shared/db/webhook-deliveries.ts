/**
 * Webhook deliveries, in the subscription's own partition `ORG#<orgId>#WEBHOOK#<subscriptionId>`:
 * - one delivery per (event, subscription): `SK = DLV#<eventId>`, `status` pending → succeeded | failed |
 *   dropped, its attempt count and next retry time (the payload bytes travel in the queue message, so every
 *   attempt sends the same body);
 * - one item per attempt: `SK = ATT#<iso time>#<eventId>#<attempt>`, listed newest first by
 *   `GET /webhooks/{id}/deliveries`.
 * Both expire after 30 days (TTL).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { db, tableName } from '#db/client';
import { webhookPk } from '#db/keys';

const RETENTION_SECONDS = 30 * 86_400;

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'dropped';

/** What the delivery queue carries: enough to deliver without another read of the event. */
export interface DeliveryMessage {
  orgId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  /** The JSON body, exactly as signed and sent on every attempt. */
  payload: string;
}

export interface DeliveryAttempt {
  subscriptionId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  attemptedAt: string;
  ok: boolean;
  statusCode: number | null;
  latencyMs: number | null;
  error: string | null;
  /** When the next attempt is due (ISO), or null when none follows. */
  nextRetryAt: string | null;
  outcome: DeliveryStatus | 'retrying';
}

const partition = webhookPk;
const ttlFrom = (now: Date) => Math.floor(now.getTime() / 1000) + RETENTION_SECONDS;

/**
 * Records a delivery as pending unless it exists. Fan-out calls this before enqueueing, so a replayed
 * stream record does not deliver an event that already succeeded.
 * @returns 'new', or the existing delivery's status
 */
export async function claimDelivery(m: DeliveryMessage, now: Date): Promise<'new' | DeliveryStatus> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          PK: partition(m.orgId, m.subscriptionId), SK: `DLV#${m.eventId}`, entity: 'WebhookDelivery',
          orgId: m.orgId, subscriptionId: m.subscriptionId, eventId: m.eventId, eventType: m.eventType,
          status: 'pending', attemptCount: 0, createdAt: now.toISOString(), ttl: ttlFrom(now),
        },
        ConditionExpression: 'attribute_not_exists(SK)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'new';
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException && err.Item) return unmarshall(err.Item).status as DeliveryStatus;
    throw err;
  }
}

/** Stores one attempt and moves its delivery to the attempt's outcome. */
export async function recordAttempt(orgId: string, a: DeliveryAttempt, now: Date): Promise<void> {
  const pk = partition(orgId, a.subscriptionId);
  const final = a.outcome !== 'retrying';
  await Promise.all([
    db().send(new PutCommand({ TableName: tableName(), Item: { PK: pk, SK: `ATT#${a.attemptedAt}#${a.eventId}#${String(a.attempt).padStart(3, '0')}`, entity: 'WebhookAttempt', orgId, ...a, ttl: ttlFrom(now) } })),
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: pk, SK: `DLV#${a.eventId}` },
        UpdateExpression: 'SET #s = :s, attemptCount = :n, lastAttemptAt = :at, nextRetryAt = :next',
        ConditionExpression: 'attribute_exists(SK)',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': final ? a.outcome : 'pending', ':n': a.attempt, ':at': a.attemptedAt, ':next': a.nextRetryAt },
      }),
    ).catch((err) => {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }),
  ]);
}

/** Recent attempts of a subscription, newest first. */
export async function listAttempts(orgId: string, subscriptionId: string, limit: number, offset: number): Promise<DeliveryAttempt[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :a)',
      ExpressionAttributeValues: { ':pk': partition(orgId, subscriptionId), ':a': 'ATT#' },
      ScanIndexForward: false,
      Limit: offset + limit,
    }),
  );
  return (out.Items ?? []).slice(offset, offset + limit).map(({ subscriptionId: s, eventId, eventType, attempt, attemptedAt, ok, statusCode, latencyMs, error, nextRetryAt, outcome }) => ({
    subscriptionId: s, eventId, eventType, attempt, attemptedAt, ok, statusCode: statusCode ?? null, latencyMs: latencyMs ?? null, error: error ?? null, nextRetryAt: nextRetryAt ?? null, outcome,
  }));
}

/** A delivery's status, attempt count and next retry time (ISO or null), or undefined when there is none. */
export async function getDeliveryState(orgId: string, subscriptionId: string, eventId: string): Promise<{ status: DeliveryStatus; attemptCount: number; nextRetryAt: string | null } | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: { PK: partition(orgId, subscriptionId), SK: `DLV#${eventId}` }, ProjectionExpression: '#s, attemptCount, nextRetryAt', ExpressionAttributeNames: { '#s': 'status' } }),
  );
  return out.Item ? { status: out.Item.status, attemptCount: Number(out.Item.attemptCount ?? 0), nextRetryAt: out.Item.nextRetryAt ?? null } : undefined;
}

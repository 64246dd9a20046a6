/**
 * Webhook deliveries, in the subscription's own partition `ORG#<orgId>#WEBHOOK#<subscriptionId>`:
 * - one delivery per (event, subscription): `SK = DLV#<deliveryId>`, `status` pending → succeeded | failed |
 *   dropped, written when it is claimed and when it finishes (with its attempt count); while it is retried it stays
 *   as claimed: SQS's receive count is the attempt number, and each attempt item holds its next retry time (a write
 *   per retry would cost a write unit and tell nobody anything). The first delivery of an event has the event's id as its
 *   delivery id; a redelivery (`POST /webhooks/{id}/deliveries/{deliveryId}/redeliver`) is a new delivery with a
 *   random id, `redeliveryOf` naming the one it re-sends, and the original gets `redeliveredAs`. The payload
 *   bytes travel in the queue message, so every attempt sends the same body; the delivery keeps a copy
 *   (`payload`) for redelivery;
 * - one item per attempt: `SK = ATT#<iso time>#<deliveryId>#<attempt>`, listed newest first by
 *   `GET /webhooks/{id}/deliveries`.
 * Both expire after 30 days (TTL).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { db, tableName } from '#db/client';
import { webhookPk } from '#db/keys';
import { queryUpTo } from '#db/query-up-to';

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
  /** The delivery's id; absent on an event's first delivery, whose id is the event id. */
  deliveryId?: string;
  /** The delivery a redelivery re-sends. */
  redeliveryOf?: string;
}

/**
 * Largest body (bytes) a delivery keeps for redelivery: well inside DynamoDB's 400 KB item. A larger one is read
 * back from its outbox item while that lasts (7 days, shared/db/webhook-redeliveries.ts `outboxPayload`).
 */
export const KEPT_PAYLOAD_BYTES = 100_000;

/** `{ payload }` when the body is small enough to keep on the delivery, else nothing. */
export const keptPayload = (payload: string): { payload?: string } => (Buffer.byteLength(payload, 'utf8') <= KEPT_PAYLOAD_BYTES ? { payload } : {});

/** A message's delivery id: its own, or its event's for a first delivery. */
export const deliveryIdOf = (m: Pick<DeliveryMessage, 'deliveryId' | 'eventId'>): string => m.deliveryId ?? m.eventId;

export interface DeliveryAttempt {
  subscriptionId: string;
  /** Absent: the event's first delivery (its id is the event id). */
  deliveryId?: string;
  /** The delivery a redelivery re-sends, or null. */
  redeliveryOf?: string | null;
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
          status: 'pending', attemptCount: 0, createdAt: now.toISOString(), ttl: ttlFrom(now), ...keptPayload(m.payload),
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

/** Stores one attempt and moves its delivery to the attempt's outcome (two writes, one for a retry; a batch uses the two below). */
export async function recordAttempt(orgId: string, a: DeliveryAttempt, now: Date): Promise<void> {
  await Promise.all([putAttempts([attemptItem(orgId, a, now)]), markDelivery(orgId, a)]);
}

/** The item of one attempt: `SK = ATT#<attemptedAt>#<deliveryId>#<attempt, 3 digits>`. */
export function attemptItem(orgId: string, a: DeliveryAttempt, now: Date): Record<string, unknown> {
  return { PK: partition(orgId, a.subscriptionId), SK: `ATT#${a.attemptedAt}#${deliveryIdOf(a)}#${String(a.attempt).padStart(3, '0')}`, entity: 'WebhookAttempt', orgId, ...a, ttl: ttlFrom(now) };
}

/** Attempts at a `BatchWriteItem`'s unprocessed items (throttling) before the caller's retry takes over. */
const PUT_ATTEMPTS = 5;

/**
 * Writes attempt items (`attemptItem`), one `PutItem` for one item, else `BatchWriteItem`s of 25 with unprocessed
 * items retried with backoff.
 * @throws Error when items stay unprocessed after `PUT_ATTEMPTS` tries
 */
export async function putAttempts(items: Record<string, unknown>[]): Promise<void> {
  if (items.length === 1) {
    await db().send(new PutCommand({ TableName: tableName(), Item: items[0] }));
    return;
  }
  for (let i = 0; i < items.length; i += 25) {
    let requests = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; requests.length; attempt++) {
      if (attempt >= PUT_ATTEMPTS) throw new Error(`${requests.length} attempt records left unprocessed`);
      if (attempt) await new Promise((r) => setTimeout(r, 25 * 2 ** attempt));
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
      requests = (out?.UnprocessedItems?.[tableName()] ?? []) as typeof requests;
    }
  }
}

/**
 * Moves a delivery to its finished attempt's outcome (status, attempt count, last attempt time); nothing for a
 * `retrying` attempt (the delivery stays `pending`). A delivery that no longer exists is left alone.
 */
export async function markDelivery(orgId: string, a: DeliveryAttempt): Promise<void> {
  if (a.outcome === 'retrying') return;
  await db()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: partition(orgId, a.subscriptionId), SK: `DLV#${deliveryIdOf(a)}` },
        UpdateExpression: 'SET #s = :s, attemptCount = :n, lastAttemptAt = :at, nextRetryAt = :next',
        ConditionExpression: 'attribute_exists(SK)',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': a.outcome, ':n': a.attempt, ':at': a.attemptedAt, ':next': a.nextRetryAt },
      }),
    )
    .catch((err) => {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    });
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
  return (out.Items ?? []).slice(offset, offset + limit).map(attemptOf);
}

/** An attempt item as the API shows it (`deliveryId` always set, `redeliveryOf` null on a first delivery). */
function attemptOf(item: Record<string, any>): DeliveryAttempt & { deliveryId: string; redeliveryOf: string | null } {
  const { subscriptionId: s, eventId, eventType, attempt, attemptedAt, ok, statusCode, latencyMs, error, nextRetryAt, outcome } = item;
  return {
    subscriptionId: s, deliveryId: item.deliveryId ?? eventId, redeliveryOf: item.redeliveryOf ?? null, eventId, eventType, attempt, attemptedAt, ok,
    statusCode: statusCode ?? null, latencyMs: latencyMs ?? null, error: error ?? null, nextRetryAt: nextRetryAt ?? null, outcome,
  };
}

/**
 * A delivery's status, attempt count (0 while `pending`: see the module's header) and when it was claimed (ISO), or
 * undefined when there is none.
 */
export async function getDeliveryState(orgId: string, subscriptionId: string, eventId: string): Promise<{ status: DeliveryStatus; attemptCount: number; createdAt: string } | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: { PK: partition(orgId, subscriptionId), SK: `DLV#${eventId}` }, ProjectionExpression: '#s, attemptCount, createdAt', ExpressionAttributeNames: { '#s': 'status' } }),
  );
  return out.Item ? { status: out.Item.status, attemptCount: Number(out.Item.attemptCount ?? 0), createdAt: out.Item.createdAt } : undefined;
}

/** Attempt items older than their delivery's `createdAt` by up to this much still count (clocks of two functions), ms. */
const CLOCK_SKEW_MS = 60_000;

/**
 * The latest attempt of a pending delivery: its number and next retry time (ISO or null), or undefined when it has
 * none. Queries the subscription's attempt items since the delivery was claimed (`createdAt`), filtered to the
 * delivery, so it reads every attempt of the subscription since then: for the local runtime's restart recovery
 * (lib/local/pending-deliveries.ts), never a request path.
 */
export async function latestAttempt(orgId: string, subscriptionId: string, deliveryId: string, createdAt: string): Promise<{ attempt: number; nextRetryAt: string | null } | undefined> {
  const since = new Date(Date.parse(createdAt) - CLOCK_SKEW_MS).toISOString();
  const items = await queryUpTo(
    {
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      // A first delivery's attempts carry no `deliveryId`: its id is the event's.
      FilterExpression: 'deliveryId = :d OR (attribute_not_exists(deliveryId) AND eventId = :d)',
      ExpressionAttributeValues: { ':pk': partition(orgId, subscriptionId), ':from': `ATT#${since}`, ':to': 'ATT#~', ':d': deliveryId },
      ProjectionExpression: 'attempt, nextRetryAt',
      ConsistentRead: true,
    },
    Infinity,
  );
  const latest = items.reduce<Record<string, any> | undefined>((l, i) => (!l || i.attempt > l.attempt ? i : l), undefined);
  return latest && { attempt: latest.attempt, nextRetryAt: latest.nextRetryAt ?? null };
}

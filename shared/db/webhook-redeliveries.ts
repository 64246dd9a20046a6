/**
 * Reads and writes of webhook redelivery (shared/use-cases/redeliver-webhook.ts), in the subscription's partition
 * described in shared/db/webhook-deliveries.ts: one delivery by id, the finished attempts of a time range, and the
 * writes that create a redelivery (a new `DLV#<deliveryId>` item linking `redeliveryOf`, the original marked
 * `redeliveredAs`).
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { webhookPk } from '#db/keys';
import { outboxKey } from '#db/outbox';
import type { TransactItem } from '#db/transact';
import { keptPayload, type DeliveryMessage, type DeliveryStatus } from '#db/webhook-deliveries';

const RETENTION_SECONDS = 30 * 86_400;

/** A stored delivery, as redelivery needs it. */
export interface StoredDelivery {
  deliveryId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  /** The JSON body sent on every attempt; absent on deliveries stored before it was kept. */
  payload?: string;
  redeliveryOf: string | null;
  /** The latest redelivery of this one, or null. */
  redeliveredAs: string | null;
}

/** The delivery `deliveryId` of a subscription, or undefined. Strongly consistent. */
export async function getDelivery(orgId: string, subscriptionId: string, deliveryId: string): Promise<StoredDelivery | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: webhookPk(orgId, subscriptionId), SK: `DLV#${deliveryId}` }, ConsistentRead: true }));
  const i = out.Item;
  if (!i) return undefined;
  return {
    deliveryId, subscriptionId, eventId: i.eventId, eventType: i.eventType, status: i.status, payload: i.payload,
    redeliveryOf: i.redeliveryOf ?? null, redeliveredAs: i.redeliveredAs ?? null,
  };
}

/**
 * The envelope JSON of an event from its outbox item (kept 7 days, shared/db/outbox.ts), for deliveries stored
 * without their payload; undefined once it has expired.
 */
export async function outboxPayload(orgId: string, eventId: string): Promise<string | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: outboxKey(orgId, eventId), ProjectionExpression: 'envelope' }));
  return out.Item?.envelope ? JSON.stringify(out.Item.envelope) : undefined;
}

/**
 * The two writes of one redelivery: the new delivery (pending, attempt count 0, same event and payload) and the
 * original marked `redeliveredAs`.
 * @param opts.once the original may not have been redelivered already (bulk redelivery: two overlapping calls
 *   never re-send the same delivery twice); its status must still be `status`
 */
export function redeliveryWrites(orgId: string, original: StoredDelivery, m: DeliveryMessage & { deliveryId: string }, now: Date, opts: { once?: DeliveryStatus } = {}): TransactItem[] {
  const pk = webhookPk(orgId, original.subscriptionId);
  return [
    {
      Put: {
        TableName: tableName(),
        Item: {
          PK: pk, SK: `DLV#${m.deliveryId}`, entity: 'WebhookDelivery', orgId, subscriptionId: original.subscriptionId, eventId: m.eventId, eventType: m.eventType,
          status: 'pending', attemptCount: 0, createdAt: now.toISOString(), ttl: Math.floor(now.getTime() / 1000) + RETENTION_SECONDS,
          ...keptPayload(m.payload), redeliveryOf: original.deliveryId,
        },
        ConditionExpression: 'attribute_not_exists(SK)',
      },
    },
    {
      Update: {
        TableName: tableName(),
        Key: { PK: pk, SK: `DLV#${original.deliveryId}` },
        UpdateExpression: 'SET redeliveredAs = :r',
        ConditionExpression: opts.once ? 'attribute_exists(SK) AND attribute_not_exists(redeliveredAs) AND #s = :s' : 'attribute_exists(SK)',
        ...(opts.once ? { ExpressionAttributeNames: { '#s': 'status' } } : {}),
        ExpressionAttributeValues: { ':r': m.deliveryId, ...(opts.once ? { ':s': opts.once } : {}) },
      },
    },
  ];
}

/** A finished attempt found by `finalAttemptsBetween`: its sort key (the paging cursor) and its delivery. */
export interface FinalAttempt {
  sk: string;
  deliveryId: string;
  eventId: string;
  eventType: string;
}

/**
 * Attempts of a subscription that ended a delivery with `outcome`, oldest first, whose sort keys lie after `afterSk`
 * and at or before `toSk` (sort keys are `ATT#<iso time>#…`, so this is a time range).
 * @param max stop after this many matches
 * @param budget stop after reading this many attempt items (a bounded call), matching or not
 * @returns the matches, and `lastSk`, the last sort key read when more may follow (undefined when the range is done)
 */
export async function finalAttemptsBetween(
  orgId: string, subscriptionId: string, afterSk: string, toSk: string, outcome: DeliveryStatus, max: number, budget: number,
): Promise<{ matches: FinalAttempt[]; lastSk?: string }> {
  const matches: FinalAttempt[] = [];
  let read = 0;
  // BETWEEN is inclusive: the item a page starts at was read already (by the last page, or the last call).
  let from = afterSk;
  for (;;) {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': webhookPk(orgId, subscriptionId), ':from': from, ':to': toSk },
        ProjectionExpression: 'SK, deliveryId, eventId, eventType, outcome',
        Limit: Math.min(200, budget - read) + 1,
      }),
    );
    for (const i of out.Items ?? []) {
      if (i.SK === from) continue;
      read++;
      if (i.outcome !== outcome) continue;
      matches.push({ sk: i.SK, deliveryId: i.deliveryId ?? i.eventId, eventId: i.eventId, eventType: i.eventType });
      if (matches.length >= max) return { matches, lastSk: i.SK };
    }
    if (!out.LastEvaluatedKey) return { matches };
    from = out.LastEvaluatedKey.SK as string;
    if (read >= budget) return { matches, lastSk: from };
  }
}

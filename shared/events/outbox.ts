/**
 * Transactional outbox: an event is an item written in the SAME `TransactWriteItems` as the change it
 * reports, so an event exists if and only if its change committed. DynamoDB Streams carries the item to
 * webhook fan-out. This is the one way operations emit events.
 *
 * Item: `PK = ORG#<orgId>#EVENT#<eventId>`, `SK = EVENT`, `entity = OutboxEvent`, the delivery envelope
 * (spec "Delivery": eventType, eventId, timestamp, organizationId, userId, data), kept 7 days (TTL).
 */
import { randomUUID } from 'node:crypto';
import { tableName } from '#db/client';
import { eventPk } from '#db/keys';
import type { EventType } from '#events/catalog';

export const OUTBOX_RETENTION_SECONDS = 7 * 86_400;

export interface EventEnvelope {
  eventType: EventType;
  eventId: string;
  timestamp: string;
  organizationId: string;
  userId: string | null;
  data: Record<string, unknown>;
}

/** Who caused an event. */
export interface Actor {
  orgId: string;
  userId: string | null;
}

/**
 * The `Put` of one outbox event, to add to the transaction that makes the change.
 * @param data thin payload: ids and a few key fields (spec "Delivery")
 */
export function outboxPut(actor: Actor, eventType: EventType, data: Record<string, unknown>, now = new Date()) {
  const envelope: EventEnvelope = {
    eventType,
    eventId: randomUUID(),
    timestamp: now.toISOString(),
    organizationId: actor.orgId,
    userId: actor.userId,
    data,
  };
  return {
    Put: {
      TableName: tableName(),
      Item: {
        PK: eventPk(actor.orgId, envelope.eventId),
        SK: 'EVENT',
        entity: 'OutboxEvent',
        orgId: actor.orgId,
        envelope,
        ttl: Math.floor(now.getTime() / 1000) + OUTBOX_RETENTION_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

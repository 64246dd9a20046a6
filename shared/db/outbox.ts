/**
 * The outbox item's repository (shared/events/outbox.ts describes the pattern): `PK = ORG#<orgId>#EVENT#<eventId>`,
 * `SK = EVENT`, `entity = OutboxEvent`, the delivery envelope, kept 7 days (TTL). Only use cases call `outboxPut`
 * (test/unit/event-emitters.test.ts checks it), each event type in one place.
 */
import { randomUUID } from 'node:crypto';
import { tableName } from '#db/client';
import { eventPk } from '#db/keys';
import type { EventPayloads, EventType } from '#events/catalog';
import type { Actor, EventEnvelope } from '#events/outbox';

/** Seconds an outbox item is kept (its TTL); fan-out reads it from the stream within seconds. */
export const OUTBOX_RETENTION_SECONDS = 7 * 86_400;

/** Key of the outbox item of one event. */
export const outboxKey = (orgId: string, eventId: string) => ({ PK: eventPk(orgId, eventId), SK: 'EVENT' });

/** The outbox item as stored. */
export type OutboxItem<T extends EventType = EventType> = {
  PK: string;
  SK: string;
  entity: 'OutboxEvent';
  orgId: string;
  envelope: EventEnvelope<T>;
  /** Epoch seconds. */
  ttl: number;
};

/**
 * The conditional `Put` of one outbox event, to add to the `TransactWriteItems` that makes the change it reports.
 * @param eventType a type of the catalog; `data` must be that type's payload (shared/events/catalog.ts)
 */
export function outboxPut<T extends EventType>(actor: Actor, eventType: T, data: EventPayloads[T], now = new Date()) {
  const envelope = { eventType, eventId: randomUUID(), timestamp: now.toISOString(), organizationId: actor.orgId, userId: actor.userId, data } as EventEnvelope<T>;
  const Item: OutboxItem<T> = {
    ...outboxKey(actor.orgId, envelope.eventId),
    entity: 'OutboxEvent',
    orgId: actor.orgId,
    envelope,
    ttl: Math.floor(now.getTime() / 1000) + OUTBOX_RETENTION_SECONDS,
  };
  return { Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(PK)' } };
}

/** The envelope of an item (a stream record's new image, unmarshalled), or undefined for an item that is no outbox event. */
export function envelopeOfItem(item: Record<string, unknown>): EventEnvelope | undefined {
  return item.entity === 'OutboxEvent' ? (item.envelope as EventEnvelope) : undefined;
}

/**
 * Transactional outbox, the shapes: an event is an item written in the SAME `TransactWriteItems` as the change it
 * reports, so an event exists if and only if its change committed; DynamoDB Streams carries the item to webhook
 * fan-out (functions/webhook-fanout). Use cases emit events (events have one owner) with `outboxPut` of the outbox
 * item's repository, shared/db/outbox.ts; the payload of each type is in shared/events/catalog.ts.
 */
import type { EventPayloads, EventType } from '#events/catalog';

/** The delivery envelope of one event (spec "Delivery"), typed by its event type: narrowing `eventType` types `data`. */
export type EventEnvelope<T extends EventType = EventType> = {
  [K in T]: {
    eventType: K;
    eventId: string;
    /** ISO 8601 UTC. */
    timestamp: string;
    organizationId: string;
    userId: string | null;
    data: EventPayloads[K];
  };
}[T];

/** Who caused an event. */
export interface Actor {
  orgId: string;
  userId: string | null;
}

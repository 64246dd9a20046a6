/**
 * Webhook redelivery (this service's design; docs/webhooks.md "Redelivery"): re-sending a delivery as
 * a new delivery of the same event (same event id, same body, signed anew with the subscription's current secret
 * when it is sent), with a fresh attempt count (its own SQS message, so its own receive count and retry schedule).
 * The new delivery links the one it re-sends (`redeliveryOf`) and shows in `GET /webhooks/{id}/deliveries` with its
 * own `deliveryId` once attempted.
 *
 * Like every change, a redelivery is committed with its outbox event (`webhook.redelivery_requested`, internal) in one
 * `TransactWriteItems`: the new delivery items (pending) and the originals marked `redeliveredAs`. Fan-out
 * (shared/use-cases/fan-out.ts) enqueues the pending deliveries the event names, so the request path never calls SQS
 * and a committed redelivery is never lost between the table and the queue.
 *
 * Rules:
 * - internal events (shared/events/catalog.ts `webhook: false`) are never delivered: refused one by one, skipped in bulk;
 * - the circuit breaker is respected: a subscription that is paused (by its breaker or by hand) is refused with a
 *   422 naming `id`; resume it first (`PUT /webhooks/{id}` with `isActive: true`). Nothing is
 *   queued behind an open breaker, so resuming never releases a burst the caller did not ask for;
 * - bulk redelivery re-sends, oldest first, the deliveries of a time range whose last attempt ended `failed` (or
 *   `dropped`) and that were not redelivered already, at most `MAX_BULK` per call, and reads at most `READ_BUDGET`
 *   attempt items per call; the answer says whether more may follow and the cursor to continue from.
 */
import { randomUUID } from 'node:crypto';
import { getWebhook, type WebhookSubscription } from '#db/webhooks';
import type { DeliveryMessage, DeliveryStatus } from '#db/webhook-deliveries';
import { finalAttemptsBetween, getDelivery, outboxPayload, redeliveryWrites, type StoredDelivery } from '#db/webhook-redeliveries';
import { transactWrite } from '#db/transact';
import { outboxPut } from '#db/outbox';
import { isInternalEvent } from '#events/catalog';
import { InvalidInput, NotFound } from '#domain/errors';
import type { Actor, EventEnvelope } from '#events/outbox';

/** Most deliveries one bulk call re-sends. */
export const MAX_BULK = 100;
/** Most attempt items one bulk call reads (bounds its time and read capacity). */
export const READ_BUDGET = 2_000;

/** One redelivery made. */
export interface Redelivery {
  deliveryId: string;
  redeliveryOf: string;
  eventId: string;
  eventType: string;
}

/** @throws InvalidInput (422, naming `id`) when the subscription is paused (by its breaker or by hand) */
function assertDeliverable(s: WebhookSubscription): void {
  if (s.isActive) return;
  const why = s.pausedReason === 'circuit_breaker' ? 'paused by its circuit breaker' : 'paused';
  throw new InvalidInput({ id: `subscription is ${why}` }, `The subscription is ${why}; set isActive to true (PUT /api/v1/webhooks/{id}) before redelivering.`);
}

/** The message of a redelivery of `d`, or undefined when its body is no longer kept. */
async function messageOf(orgId: string, d: StoredDelivery): Promise<(DeliveryMessage & { deliveryId: string }) | undefined> {
  const payload = d.payload ?? (await outboxPayload(orgId, d.eventId));
  if (payload === undefined) return undefined;
  return { orgId, subscriptionId: d.subscriptionId, eventId: d.eventId, eventType: d.eventType, payload, deliveryId: randomUUID(), redeliveryOf: d.deliveryId };
}

/** Redeliveries per transaction: two writes each plus the outbox event, within DynamoDB's 100 items. */
const PER_TRANSACTION = 49;

type Planned = { original: StoredDelivery; m: DeliveryMessage & { deliveryId: string } };

/**
 * Commits `planned` with one `webhook.redelivery_requested` event per transaction. With `once`, a redelivery whose
 * original was redelivered meanwhile (its condition fails) is left out and the rest committed.
 * @returns the redeliveries committed
 */
async function commit(actor: Actor, subscriptionId: string, planned: Planned[], now: Date, once?: DeliveryStatus): Promise<Planned[]> {
  const done: Planned[] = [];
  for (let i = 0; i < planned.length; i += PER_TRANSACTION) {
    let chunk = planned.slice(i, i + PER_TRANSACTION);
    while (chunk.length) {
      const items = [...chunk.flatMap((p) => redeliveryWrites(actor.orgId, p.original, p.m, now, { once })), outboxPut(actor, 'webhook.redelivery_requested', { subscriptionId, deliveryIds: chunk.map((p) => p.m.deliveryId) }, now)];
      const failedAt = await transactWrite(items, (index) => new ConditionFailed(index)).then(
        () => undefined,
        (err: unknown) => (err instanceof ConditionFailed && err.index < chunk.length * 2 ? Math.floor(err.index / 2) : Promise.reject(err)),
      );
      if (failedAt === undefined) {
        done.push(...chunk);
        break;
      }
      chunk = chunk.filter((_, j) => j !== failedAt);
    }
  }
  return done;
}

/** A failed condition of item `index` of a transaction (internal to `commit`). */
class ConditionFailed extends Error {
  constructor(readonly index: number) {
    super(`condition of item ${index} failed`);
  }
}

/**
 * The delivery messages a `webhook.redelivery_requested` event names, for fan-out to enqueue: those still pending
 * (a replayed stream record does not re-send one already attempted).
 */
export async function redeliveryMessages(envelope: EventEnvelope<'webhook.redelivery_requested'>): Promise<DeliveryMessage[]> {
  const orgId = envelope.organizationId;
  const out: DeliveryMessage[] = [];
  for (const deliveryId of envelope.data.deliveryIds) {
    const d = await getDelivery(orgId, envelope.data.subscriptionId, deliveryId);
    if (!d || d.status !== 'pending' || isInternalEvent(d.eventType)) continue;
    const payload = d.payload ?? (await outboxPayload(orgId, d.eventId));
    if (payload === undefined) continue;
    out.push({ orgId, subscriptionId: d.subscriptionId, eventId: d.eventId, eventType: d.eventType, payload, deliveryId, ...(d.redeliveryOf ? { redeliveryOf: d.redeliveryOf } : {}) });
  }
  return out;
}

const ref = (m: DeliveryMessage & { deliveryId: string }, of: string): Redelivery => ({ deliveryId: m.deliveryId, redeliveryOf: of, eventId: m.eventId, eventType: m.eventType });

/**
 * Re-sends delivery `deliveryId` of subscription `subscriptionId`, whatever its status.
 * @throws NotFound when the subscription or the delivery is absent or another organization's
 * @throws InvalidInput when the subscription is paused, the event is internal or its body has expired
 */
export async function redeliverOne(actor: Actor, subscriptionId: string, deliveryId: string, now: Date): Promise<Redelivery> {
  const sub = await getWebhook(actor.orgId, subscriptionId, true);
  const d = await getDelivery(actor.orgId, sub.id, deliveryId);
  if (!d) throw new NotFound('Delivery');
  if (isInternalEvent(d.eventType)) throw new InvalidInput({ deliveryId: `${d.eventType} is an internal event; webhooks never deliver it` });
  assertDeliverable(sub);
  const m = await messageOf(actor.orgId, d);
  if (!m) throw new InvalidInput({ deliveryId: 'the body of this delivery is no longer kept' }, 'The body of this delivery is no longer kept; it cannot be redelivered.');
  await commit(actor, sub.id, [{ original: d, m }], now);
  return ref(m, d.deliveryId);
}

/** A bulk redelivery's filter: deliveries whose last attempt ended `status` between `since` and `until`. */
export interface BulkFilter {
  since: Date;
  until: Date;
  status: Extract<DeliveryStatus, 'failed' | 'dropped'>;
  /** Most deliveries to re-send (1..MAX_BULK). */
  limit: number;
  /** From a previous answer: continue after it. */
  cursor?: string;
}

/** What a bulk call did. */
export interface BulkRedelivery {
  redelivered: Redelivery[];
  /** Matching deliveries not re-sent: redelivered meanwhile, internal, or whose body has expired. */
  skipped: number;
  /** True when more matching deliveries may follow: call again with `cursor`. */
  truncated: boolean;
  cursor: string | null;
}

const encodeCursor = (sk: string) => Buffer.from(sk, 'utf8').toString('base64url');

/** @throws InvalidInput when the cursor is not one this operation gave for this range */
function decodeCursor(cursor: string, from: string, to: string): string {
  const sk = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!sk.startsWith('ATT#') || sk < from || sk > to) throw new InvalidInput({ cursor: 'is not a cursor of this time range' });
  return sk;
}

/**
 * Re-sends the failed (or dropped) deliveries of a time range, oldest first, each at most once across calls.
 * @throws NotFound when the subscription is absent or another organization's
 * @throws InvalidInput when the subscription is paused, `until` is before `since` or the cursor is foreign
 */
export async function redeliverFailed(actor: Actor, subscriptionId: string, f: BulkFilter, now: Date): Promise<BulkRedelivery> {
  if (f.until < f.since) throw new InvalidInput({ until: 'must not be before since' });
  const sub = await getWebhook(actor.orgId, subscriptionId, true);
  assertDeliverable(sub);
  const from = `ATT#${f.since.toISOString()}`;
  const to = `ATT#${f.until.toISOString()}#\uffff`;
  const after = f.cursor === undefined ? from : decodeCursor(f.cursor, from, to);
  const limit = Math.min(Math.max(1, f.limit), MAX_BULK);
  const { matches, lastSk } = await finalAttemptsBetween(actor.orgId, sub.id, after, to, f.status, limit, READ_BUDGET);
  const planned: Planned[] = [];
  for (const a of matches) {
    const d = isInternalEvent(a.eventType) ? undefined : await getDelivery(actor.orgId, sub.id, a.deliveryId);
    const m = d && d.status === f.status && !d.redeliveredAs ? await messageOf(actor.orgId, d) : undefined;
    if (d && m) planned.push({ original: d, m });
  }
  const made = await commit(actor, sub.id, planned, now, f.status);
  return {
    redelivered: made.map((p) => ref(p.m, p.original.deliveryId)),
    skipped: matches.length - made.length,
    truncated: lastSk !== undefined,
    cursor: lastSk === undefined ? null : encodeCursor(lastSk),
  };
}

/**
 * A pending delivery's record keeps no attempt count (shared/db/webhook-deliveries.ts: a retry writes only its
 * attempt item), so the local restart recovery (lib/local/pending-deliveries.ts) reads the delivery's latest attempt
 * item with `latestAttempt`, against DynamoDB Local: the highest attempt of that delivery only (not the
 * subscription's other deliveries, nor a redelivery of the same event), with its next retry time.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { claimDelivery, getDeliveryState, latestAttempt, recordAttempt, type DeliveryAttempt } from '#db/webhook-deliveries';
import { useTestTable } from '../support/test-table.ts';
import { deliveryMessage, newOrgId } from './webhook-fixtures.ts';

let orgId: string;
const subscriptionId = randomUUID();
const T0 = Date.parse('2030-03-01T12:00:00.000Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

beforeAll(async () => {
  await useTestTable();
  orgId = await newOrgId();
});

/** A failed attempt `n` of `eventId` (of a redelivery with `deliveryId`), made at second `s`, retried at `s + 60`. */
const retrying = (eventId: string, n: number, s: number, deliveryId?: string): DeliveryAttempt => ({
  subscriptionId, ...(deliveryId && { deliveryId, redeliveryOf: eventId }), eventId, eventType: 'task.created', attempt: n, attemptedAt: at(s),
  ok: false, statusCode: 503, latencyMs: 4, error: 'status 503', nextRetryAt: at(s + 60), outcome: 'retrying',
});

describe('latestAttempt', () => {
  it("finds a pending delivery's latest attempt among the subscription's others; its record stays as claimed", async () => {
    const [m, other] = [deliveryMessage(orgId, subscriptionId), deliveryMessage(orgId, subscriptionId)];
    await claimDelivery(m, new Date(T0));
    await claimDelivery(other, new Date(T0));
    const now = new Date(T0);
    await recordAttempt(orgId, retrying(m.eventId, 1, 1), now);
    await recordAttempt(orgId, retrying(other.eventId, 1, 2), now);
    await recordAttempt(orgId, retrying(other.eventId, 2, 3), now);
    await recordAttempt(orgId, retrying(other.eventId, 3, 4), now);
    await recordAttempt(orgId, retrying(m.eventId, 2, 5), now);
    await recordAttempt(orgId, retrying(m.eventId, 5, 6, randomUUID()), now); // a redelivery of the same event: its own delivery

    const state = await getDeliveryState(orgId, subscriptionId, m.eventId);
    expect(state).toEqual({ status: 'pending', attemptCount: 0, createdAt: at(0) });
    expect(await latestAttempt(orgId, subscriptionId, m.eventId, state!.createdAt)).toEqual({ attempt: 2, nextRetryAt: at(65) });
    expect(await latestAttempt(orgId, subscriptionId, other.eventId, at(0))).toEqual({ attempt: 3, nextRetryAt: at(64) });
  });

  it('is undefined for a delivery without attempts', async () => {
    const m = deliveryMessage(orgId, subscriptionId);
    await claimDelivery(m, new Date(T0));
    expect(await latestAttempt(orgId, subscriptionId, m.eventId, at(0))).toBeUndefined();
  });
});

/**
 * The webhook circuit breaker: consecutive failures pause a subscription (`isActive: false`,
 * `pausedReason: circuit_breaker`), deliveries to it are dropped, a success resets the count, and the
 * update operation with `isActive: true` resets the breaker. The threshold is read at import, so this file
 * sets `WEBHOOK_BREAKER_THRESHOLD=3` before its imports run.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import 'aws-sdk-client-mock-vitest/extend';
import { ChangeMessageVisibilityBatchCommand, ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import { CIRCUIT_BREAKER_THRESHOLD, createWebhook, getWebhook, recordWebhookFailure, replaceWebhook, type WebhookInput } from '#db/webhooks';
import { listAttempts } from '#db/webhook-deliveries';
import { handler } from '#functions/webhook-delivery/handler';
import { status, type Receiver } from '../unit/webhook-receiver.ts';
import { deliveryMessage, sqsRecord, useDeliveryWorker } from './webhook-fixtures.ts';

const savedThreshold = vi.hoisted(() => {
  const before = process.env.WEBHOOK_BREAKER_THRESHOLD;
  process.env.WEBHOOK_BREAKER_THRESHOLD = '3';
  return before;
});

const h = useDeliveryWorker({ WEBHOOK_BREAKER_THRESHOLD: savedThreshold });
const { sqsMock } = h;
let rx: Receiver;
let orgId: string;

beforeAll(() => {
  ({ rx, orgId } = h);
});

const input = (over: Partial<WebhookInput> = {}): WebhookInput => ({ name: 'CRM', url: `${rx.url}/hook`, events: ['*'], ...over });
const subscribe = (over: Partial<WebhookInput> = {}) => createWebhook(orgId, input(over), new Date());

describe('recordWebhookFailure', () => {
  it('pauses the subscription at the threshold, and only then', async () => {
    const sub = await subscribe();
    const now = new Date('2030-03-01T12:00:00.000Z');
    expect(await recordWebhookFailure(orgId, sub.id, now, 3)).toBe(false);
    expect(await recordWebhookFailure(orgId, sub.id, now, 3)).toBe(false);
    expect((await getWebhook(orgId, sub.id, true)).isActive).toBe(true);

    expect(await recordWebhookFailure(orgId, sub.id, now, 3)).toBe(true);

    expect(await getWebhook(orgId, sub.id, true)).toMatchObject({ isActive: false, pausedReason: 'circuit_breaker', pausedAt: now.toISOString(), consecutiveFailures: 3 });
    expect(await recordWebhookFailure(orgId, sub.id, now, 3)).toBe(false); // already paused: not tripped twice
  });

  it('never pauses a subscription with the breaker disabled', async () => {
    const sub = await subscribe();
    await replaceWebhook(orgId, sub.id, input({ circuitBreakerEnabled: false }), new Date());
    for (let i = 0; i < 5; i++) expect(await recordWebhookFailure(orgId, sub.id, new Date(), 3)).toBe(false);
    expect(await getWebhook(orgId, sub.id, true)).toMatchObject({ isActive: true, pausedReason: null, consecutiveFailures: 5 });
  });

  it('is a no-op for a missing subscription', async () => {
    expect(await recordWebhookFailure(orgId, '00000000-0000-4000-8000-000000000000', new Date(), 1)).toBe(false);
  });
});

describe('a paused subscription', () => {
  it('drops deliveries: nothing is sent, the attempt says why, the message is acked', async () => {
    const sub = await subscribe();
    for (let i = 0; i < 3; i++) await recordWebhookFailure(orgId, sub.id, new Date(), 3);
    const m = deliveryMessage(orgId, sub.id);

    const out = await handler({ Records: [sqsRecord(m)] });

    expect(out.batchItemFailures).toEqual([]);
    expect(rx.received).toHaveLength(0);
    expect(sqsMock).not.toHaveReceivedCommand(ChangeMessageVisibilityCommand);
    const [attempt] = await listAttempts(orgId, sub.id, 10, 0);
    expect(attempt).toMatchObject({ eventId: m.eventId, ok: false, outcome: 'dropped', error: 'subscription paused by the circuit breaker', nextRetryAt: null });
  });

  it('stays paused through an update that does not set isActive', async () => {
    const sub = await subscribe();
    for (let i = 0; i < 3; i++) await recordWebhookFailure(orgId, sub.id, new Date(), 3);
    const updated = await replaceWebhook(orgId, sub.id, input({ name: 'CRM renamed' }), new Date());
    expect(updated).toMatchObject({ name: 'CRM renamed', isActive: false, pausedReason: 'circuit_breaker', consecutiveFailures: 3 });
  });

  it('is re-enabled by replaceWebhook with isActive true, which resets the breaker, and delivers again', async () => {
    const sub = await subscribe();
    for (let i = 0; i < 3; i++) await recordWebhookFailure(orgId, sub.id, new Date(), 3);

    const updated = await replaceWebhook(orgId, sub.id, input({ isActive: true }), new Date());

    const expected = { isActive: true, consecutiveFailures: 0, pausedAt: null, pausedReason: null };
    expect(updated).toMatchObject(expected);
    expect(await getWebhook(orgId, sub.id, true)).toMatchObject(expected);
    await handler({ Records: [sqsRecord(deliveryMessage(orgId, sub.id))] });
    expect(rx.received).toHaveLength(1);
  });
});

describe('the worker and the breaker (WEBHOOK_BREAKER_THRESHOLD=3)', () => {
  it('reads the threshold from the environment', () => {
    expect(CIRCUIT_BREAKER_THRESHOLD).toBe(3);
  });

  it('the failure that trips the breaker is dropped, not retried, and pauses the subscription', async () => {
    rx.respondWith(status(500));
    const sub = await subscribe();
    for (let i = 0; i < 2; i++) {
      const out = await handler({ Records: [sqsRecord(deliveryMessage(orgId, sub.id))] });
      expect(out.batchItemFailures).toHaveLength(1);
    }
    sqsMock.resetHistory();
    const third = deliveryMessage(orgId, sub.id);

    const out = await handler({ Records: [sqsRecord(third)] });

    expect(out.batchItemFailures).toEqual([]);
    expect(sqsMock).not.toHaveReceivedCommand(ChangeMessageVisibilityCommand);
    const [attempt] = (await listAttempts(orgId, sub.id, 10, 0)).filter((a) => a.eventId === third.eventId);
    expect(attempt).toMatchObject({ statusCode: 500, outcome: 'dropped', nextRetryAt: null });
    expect(await getWebhook(orgId, sub.id, true)).toMatchObject({ isActive: false, pausedReason: 'circuit_breaker' });
  });

  it('a batch whose failures reach the threshold trips the breaker once and drops them all, none retried', async () => {
    rx.respondWith(status(500));
    const sub = await subscribe();
    const messages = Array.from({ length: 4 }, () => deliveryMessage(orgId, sub.id));
    sqsMock.resetHistory();

    const out = await handler({ Records: messages.map((m) => sqsRecord(m)) });

    expect(out.batchItemFailures).toEqual([]);
    expect(sqsMock).not.toHaveReceivedCommand(ChangeMessageVisibilityBatchCommand);
    expect(sqsMock).not.toHaveReceivedCommand(ChangeMessageVisibilityCommand);
    const attempts = await listAttempts(orgId, sub.id, 10, 0);
    expect(attempts.map((a) => a.outcome)).toEqual(['dropped', 'dropped', 'dropped', 'dropped']);
    expect(attempts.every((a) => a.statusCode === 500 && a.nextRetryAt === null)).toBe(true);
    expect(await getWebhook(orgId, sub.id, true)).toMatchObject({ isActive: false, pausedReason: 'circuit_breaker', consecutiveFailures: 4 });
  });

  it('a success resets the consecutive-failure count', async () => {
    rx.respondWith(status(502));
    const sub = await subscribe();
    for (let i = 0; i < 2; i++) await handler({ Records: [sqsRecord(deliveryMessage(orgId, sub.id))] });
    expect((await getWebhook(orgId, sub.id, true)).consecutiveFailures).toBe(2);
    rx.respondWith(status(200));

    await handler({ Records: [sqsRecord(deliveryMessage(orgId, sub.id))] });

    expect(await getWebhook(orgId, sub.id, true)).toMatchObject({ consecutiveFailures: 0, isActive: true });
  });
});

/**
 * Webhook delivery worker against DynamoDB Local, a real receiver on 127.0.0.1 and a mocked SQS: the
 * signed request (spec "Delivery" headers), recorded attempts, retry visibility per the schedule, the last
 * attempt, secret rotation between retries, and deleted subscriptions.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import 'aws-sdk-client-mock-vitest/extend';
import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import { createWebhook, deleteWebhook, rotateWebhookSecret, type WebhookInput } from '#db/webhooks';
import { listAttempts } from '#db/webhook-deliveries';
import { verifyWebhookSignature } from '#events/signing';
import { maxAttempts, retryScheduleSeconds } from '#events/retry-schedule';
import { handler } from '#functions/webhook-delivery/handler';
import { status, type Receiver } from '../unit/webhook-receiver.ts';
import { deliveryMessage, QUEUE_URL, sqsRecord, useDeliveryWorker } from './webhook-fixtures.ts';

const h = useDeliveryWorker({ WEBHOOK_RETRY_SCHEDULE: process.env.WEBHOOK_RETRY_SCHEDULE });
const { sqsMock } = h;
let rx: Receiver;
let orgId: string;

beforeAll(() => {
  delete process.env.WEBHOOK_RETRY_SCHEDULE;
  ({ rx, orgId } = h);
});

const subscribe = (over: Partial<WebhookInput> = {}) => createWebhook(orgId, { name: 'CRM', url: `${rx.url}/hook`, events: ['*'], ...over }, new Date());
const visibilityTimeouts = () => sqsMock.commandCalls(ChangeMessageVisibilityCommand).map((c) => c.args[0].input.VisibilityTimeout);

describe('successful delivery', () => {
  it('POSTs the exact payload signed with the subscription secret and the spec headers', async () => {
    const sub = await subscribe({ headers: { 'X-Custom': 'yes', 'X-Webhook-Signature': 'sha256=forged', 'x-webhook-event-id': 'evil', 'Content-Type': 'text/plain' } });
    const m = deliveryMessage(orgId, sub.id, 'task.created');
    const before = Date.now();

    const out = await handler({ Records: [sqsRecord(m)] });

    expect(out.batchItemFailures).toEqual([]);
    expect(rx.received).toHaveLength(1);
    const { method, path, headers, body } = rx.received[0];
    expect([method, path]).toEqual(['POST', '/hook']);
    expect(body.toString('utf8')).toBe(m.payload);
    expect(verifyWebhookSignature(sub.secret, body, headers['x-webhook-signature'] as string)).toBe(true);
    expect(headers['x-webhook-event-type']).toBe('task.created');
    expect(headers['x-webhook-event-id']).toBe(m.eventId);
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-custom']).toBe('yes');
    const ts = headers['x-webhook-timestamp'] as string;
    expect(new Date(ts).toISOString()).toBe(ts);
    expect(Date.parse(ts)).toBeGreaterThanOrEqual(before - 1000);
    expect(sqsMock).not.toHaveReceivedCommand(ChangeMessageVisibilityCommand);
  });

  it('records the attempt: ok, status 200, latency in ms, no next retry', async () => {
    const sub = await subscribe();
    const m = deliveryMessage(orgId, sub.id);
    await handler({ Records: [sqsRecord(m)] });

    const attempts = await listAttempts(orgId, sub.id, 10, 0);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ eventId: m.eventId, eventType: 'task.created', attempt: 1, ok: true, statusCode: 200, error: null, nextRetryAt: null, outcome: 'succeeded' });
    expect(typeof attempts[0].latencyMs).toBe('number');
  });

  it('delivers each record of a batch', async () => {
    const sub = await subscribe();
    const a = deliveryMessage(orgId, sub.id);
    const b = deliveryMessage(orgId, sub.id, 'contact.created');
    const out = await handler({ Records: [sqsRecord(a), sqsRecord(b)] });
    expect(out.batchItemFailures).toEqual([]);
    expect(rx.received.map((r) => r.headers['x-webhook-event-id']).sort()).toEqual([a.eventId, b.eventId].sort());
  });
});

describe('failed delivery and retries', () => {
  it('a 503 sets the visibility to the first delay ±20 % and reports the record failed', async () => {
    rx.respondWith(status(503));
    const sub = await subscribe();
    const record = sqsRecord(deliveryMessage(orgId, sub.id), 1);
    const started = Date.now();

    const out = await handler({ Records: [record] });

    expect(out.batchItemFailures).toEqual([{ itemIdentifier: record.messageId }]);
    expect(sqsMock).toHaveReceivedCommandWith(ChangeMessageVisibilityCommand, { QueueUrl: QUEUE_URL, ReceiptHandle: record.receiptHandle });
    const [first] = retryScheduleSeconds();
    const [timeout] = visibilityTimeouts();
    expect(timeout).toBeGreaterThanOrEqual(Math.floor(first * 0.8));
    expect(timeout).toBeLessThanOrEqual(Math.ceil(first * 1.2));
    const [attempt] = await listAttempts(orgId, sub.id, 10, 0);
    expect(attempt).toMatchObject({ attempt: 1, ok: false, statusCode: 503, error: 'status 503', outcome: 'retrying' });
    const dueIn = (Date.parse(attempt.nextRetryAt!) - started) / 1000;
    expect(Math.abs(dueIn - timeout!)).toBeLessThan(2);
  });

  it('the second receive uses the second delay', async () => {
    rx.respondWith(status(500));
    const sub = await subscribe();
    const m = deliveryMessage(orgId, sub.id);
    await handler({ Records: [sqsRecord(m, 1)] });
    await handler({ Records: [sqsRecord(m, 2)] });

    const second = retryScheduleSeconds()[1];
    const timeouts = visibilityTimeouts();
    expect(timeouts).toHaveLength(2);
    expect(timeouts[1]).toBeGreaterThanOrEqual(Math.floor(second * 0.8));
    expect(timeouts[1]).toBeLessThanOrEqual(Math.ceil(second * 1.2));
    const attempts = await listAttempts(orgId, sub.id, 10, 0);
    expect(attempts.map((a) => a.attempt)).toEqual([2, 1]);
    expect(rx.received.map((r) => r.headers['x-webhook-event-id'])).toEqual([m.eventId, m.eventId]);
  });

  it('the last attempt makes the message visible at once and records "failed" with no next retry', async () => {
    rx.respondWith(status(503));
    const sub = await subscribe();
    const record = sqsRecord(deliveryMessage(orgId, sub.id), maxAttempts());

    const out = await handler({ Records: [record] });

    expect(out.batchItemFailures).toEqual([{ itemIdentifier: record.messageId }]);
    expect(visibilityTimeouts()).toEqual([0]);
    const [attempt] = await listAttempts(orgId, sub.id, 10, 0);
    expect(attempt).toMatchObject({ attempt: maxAttempts(), ok: false, statusCode: 503, outcome: 'failed', nextRetryAt: null });
  });

  it('a stored custom header Node cannot send is a recorded, retried failure, not a crash', async () => {
    const sub = await subscribe({ headers: { 'bad name': 'x' } });
    const record = sqsRecord(deliveryMessage(orgId, sub.id), 1);
    const out = await handler({ Records: [record] });
    expect(out.batchItemFailures).toEqual([{ itemIdentifier: record.messageId }]);
    expect(visibilityTimeouts()).toHaveLength(1);
    expect(rx.received).toHaveLength(0);
    const [attempt] = await listAttempts(orgId, sub.id, 10, 0);
    expect(attempt).toMatchObject({ ok: false, statusCode: null, error: 'ERR_INVALID_HTTP_TOKEN', outcome: 'retrying' });
  });

  it('a retry after secret rotation is signed with the new secret', async () => {
    rx.respondWith(status(503));
    const sub = await subscribe();
    const m = deliveryMessage(orgId, sub.id);
    await handler({ Records: [sqsRecord(m, 1)] });
    const rotated = await rotateWebhookSecret(orgId, sub.id, new Date());
    rx.respondWith(status(200));

    const out = await handler({ Records: [sqsRecord(m, 2)] });

    expect(out.batchItemFailures).toEqual([]);
    expect(rotated.secret).not.toBe(sub.secret);
    const [, retry] = rx.received;
    expect(verifyWebhookSignature(rotated.secret, retry.body, retry.headers['x-webhook-signature'] as string)).toBe(true);
    expect(verifyWebhookSignature(sub.secret, retry.body, retry.headers['x-webhook-signature'] as string)).toBe(false);
    expect(retry.body.toString()).toBe(m.payload);
  });
});

describe('subscription gone or changed', () => {
  it('a deleted subscription acks the message and sends nothing', async () => {
    const sub = await subscribe();
    await deleteWebhook(orgId, sub.id);
    const out = await handler({ Records: [sqsRecord(deliveryMessage(orgId, sub.id))] });
    expect(out.batchItemFailures).toEqual([]);
    expect(rx.received).toHaveLength(0);
    expect(sqsMock.calls()).toHaveLength(0);
  });

  it('an event type no longer subscribed is dropped, but webhook.test still goes out', async () => {
    const sub = await subscribe({ events: ['contact.created'] });
    const out = await handler({ Records: [sqsRecord(deliveryMessage(orgId, sub.id, 'task.created')), sqsRecord(deliveryMessage(orgId, sub.id, 'webhook.test'))] });
    expect(out.batchItemFailures).toEqual([]);
    expect(rx.received.map((r) => r.headers['x-webhook-event-type'])).toEqual(['webhook.test']);
    const outcomes = (await listAttempts(orgId, sub.id, 10, 0)).map((a) => `${a.eventType}:${a.outcome}`).sort();
    expect(outcomes).toEqual(['task.created:dropped', 'webhook.test:succeeded']);
  });
});

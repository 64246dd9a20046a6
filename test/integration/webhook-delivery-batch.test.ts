/**
 * What the messages of one SQS batch share in the delivery worker (shared/use-cases/delivery-batch.ts), against
 * DynamoDB Local, a real receiver on 127.0.0.1 and a mocked SQS: one subscription read per subscription and batch,
 * the batch's attempt items in one `BatchWriteItem`, the retries' visibility in one `ChangeMessageVisibilityBatch`,
 * each finished delivery's record moved (a retry's left pending), and the breaker's count written once per
 * subscription and batch, only when there is one to add or clear (shared/use-cases/delivery-breaker.ts). Round trips
 * are counted by a middleware on the app's DynamoDB client.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ChangeMessageVisibilityBatchCommand, ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import { db } from '#db/client';
import { createWebhook, getWebhook } from '#db/webhooks';
import { claimDelivery, getDeliveryState, listAttempts } from '#db/webhook-deliveries';
import { handler } from '#functions/webhook-delivery/handler';
import { status, type Receiver } from '../unit/webhook-receiver.ts';
import { deliveryMessage, sqsRecord, useDeliveryWorker } from './webhook-fixtures.ts';

const h = useDeliveryWorker();
const { sqsMock } = h;
const calls: string[] = [];
let rx: Receiver;
let orgId: string;

beforeAll(() => {
  ({ rx, orgId } = h);
  db().middlewareStack.add((next, context) => async (args) => (calls.push(String(context.commandName)), next(args)), { step: 'initialize', name: 'countCalls' });
});

const subscribe = (name: string) => createWebhook(orgId, { name, url: `${rx.url}/${name}`, events: ['*'] }, new Date());
/** Claimed messages (as fan-out leaves them) for `subscriptionId`. */
async function claimed(subscriptionId: string, n: number) {
  const messages = Array.from({ length: n }, () => deliveryMessage(orgId, subscriptionId));
  for (const m of messages) await claimDelivery(m, new Date());
  return messages;
}
/** Runs the worker on `records` and returns the DynamoDB commands it sent, by name. */
async function countedRun(records: Parameters<typeof sqsRecord>[0][]) {
  const from = calls.length;
  const out = await handler({ Records: records.map((m) => sqsRecord(m)) });
  const counts: Record<string, number> = {};
  for (const c of calls.slice(from)) counts[c] = (counts[c] ?? 0) + 1;
  return { out, counts };
}

describe('one SQS batch', () => {
  it('reads each subscription once and writes the attempt items in one BatchWriteItem; every delivery is moved', async () => {
    const [a, b] = [await subscribe('a'), await subscribe('b')];
    const messages = [...(await claimed(a.id, 3)), ...(await claimed(b.id, 2))];

    const { out, counts } = await countedRun(messages);

    expect(out.batchItemFailures).toEqual([]);
    expect(rx.received).toHaveLength(5);
    expect(counts.GetItemCommand).toBe(2); // one per subscription, not one per message
    expect(counts.BatchWriteItemCommand).toBe(1);
    expect(counts.PutItemCommand).toBeUndefined();
    expect(counts.UpdateItemCommand).toBe(5); // the delivery records; no breaker reset (no failures to clear)
    expect((await listAttempts(orgId, a.id, 10, 0)).map((x) => x.outcome)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect((await listAttempts(orgId, b.id, 10, 0)).map((x) => x.outcome)).toEqual(['succeeded', 'succeeded']);
    for (const m of messages) expect((await getDeliveryState(orgId, m.subscriptionId, m.eventId))?.status).toBe('succeeded');
  });

  it("counts the batch's failures on the breaker in one write, and a success in a later batch clears the count", async () => {
    const sub = await subscribe('flaky');
    rx.respondWith(status(503));
    const failing = await claimed(sub.id, 2);

    const first = await countedRun(failing);

    expect(first.out.batchItemFailures.map((f) => f.itemIdentifier)).toHaveLength(2);
    expect(first.counts.UpdateItemCommand).toBe(1); // one ADD of 2; a retry leaves its delivery record as claimed
    for (const m of failing) expect(await getDeliveryState(orgId, sub.id, m.eventId)).toMatchObject({ status: 'pending', attemptCount: 0 });
    expect(sqsMock.commandCalls(ChangeMessageVisibilityCommand)).toHaveLength(0);
    const [visibility] = sqsMock.commandCalls(ChangeMessageVisibilityBatchCommand);
    expect(sqsMock.commandCalls(ChangeMessageVisibilityBatchCommand)).toHaveLength(1);
    expect(visibility.args[0].input.Entries).toHaveLength(2);
    expect((await getWebhook(orgId, sub.id, true)).consecutiveFailures).toBe(2);
    expect((await listAttempts(orgId, sub.id, 10, 0)).map((x) => x.outcome)).toEqual(['retrying', 'retrying']);

    rx.respondWith(status(200));
    const second = await countedRun(await claimed(sub.id, 1));

    expect(second.out.batchItemFailures).toEqual([]);
    expect(second.counts.PutItemCommand).toBe(1); // a batch of one writes its attempt with PutItem
    expect((await getWebhook(orgId, sub.id, true)).consecutiveFailures).toBe(0);
  });

  it('several successes in one batch clear the breaker\'s count with one write', async () => {
    const sub = await subscribe('recovering');
    rx.respondWith(status(503));
    await countedRun(await claimed(sub.id, 1));
    expect((await getWebhook(orgId, sub.id, true)).consecutiveFailures).toBe(1);
    rx.respondWith(status(200));

    const { out, counts } = await countedRun(await claimed(sub.id, 4));

    expect(out.batchItemFailures).toEqual([]);
    expect(counts.UpdateItemCommand).toBe(4 + 1); // the four delivery records, one clear
    expect((await getWebhook(orgId, sub.id, true)).consecutiveFailures).toBe(0);
  });

  it('a batch with a success among its failures clears the count in one write and retries the failures', async () => {
    const sub = await subscribe('mixed');
    rx.respondWith(status(503));
    await countedRun(await claimed(sub.id, 1));
    expect((await getWebhook(orgId, sub.id, true)).consecutiveFailures).toBe(1);
    const [ok, ...failing] = await claimed(sub.id, 3);
    rx.respondWith((req, res) => res.writeHead(req.headers['x-webhook-event-id'] === ok.eventId ? 200 : 503).end());

    const { out, counts } = await countedRun([ok, ...failing]);

    expect(out.batchItemFailures).toHaveLength(2);
    expect(counts.UpdateItemCommand).toBe(1 + 1); // the success's delivery record, one clear (no ADD)
    expect((await getWebhook(orgId, sub.id, true)).consecutiveFailures).toBe(0);
    const outcomes = new Map((await listAttempts(orgId, sub.id, 10, 0)).map((a) => [a.eventId, a.outcome]));
    expect([ok, ...failing].map((m) => outcomes.get(m.eventId))).toEqual(['succeeded', 'retrying', 'retrying']);
  });

  it("a disabled breaker's count does not hold the failed attempts: their items go beside it, not after it", async () => {
    const [off, on] = [
      await createWebhook(orgId, { name: 'off', url: `${rx.url}/off`, events: ['*'], circuitBreakerEnabled: false }, new Date()),
      await subscribe('on'),
    ];
    rx.respondWith(status(503));
    const order: string[] = [];
    // Holds each breaker ADD 200 ms, and notes when the attempt items are sent.
    db().middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as Record<string, unknown>;
        if (/PutItem|BatchWriteItem/.test(String(context.commandName)) && JSON.stringify(input).includes('ATT#')) order.push('attempts sent');
        if (!String(input.UpdateExpression ?? '').startsWith('ADD consecutiveFailures')) return next(args);
        await new Promise((r) => setTimeout(r, 200));
        const out = await next(args);
        order.push('count written');
        return out;
      },
      { step: 'initialize', name: 'holdBreakerAdd' },
    );
    try {
      await countedRun(await claimed(off.id, 2));
      expect(order).toEqual(['attempts sent', 'count written']);
      order.length = 0;
      await countedRun(await claimed(on.id, 2));
      expect(order).toEqual(['count written', 'attempts sent']); // an enabled one may trip: the outcome waits for it
    } finally {
      db().middlewareStack.remove('holdBreakerAdd');
    }
    expect((await getWebhook(orgId, off.id, true)).consecutiveFailures).toBe(2);
    expect((await listAttempts(orgId, off.id, 10, 0)).map((x) => x.outcome)).toEqual(['retrying', 'retrying']);
  });

  it('a message whose subscription is gone is acked without an attempt; the others\' attempts are written together', async () => {
    const sub = await subscribe('kept');
    const kept = await claimed(sub.id, 2);
    const orphan = deliveryMessage(orgId, '00000000-0000-4000-8000-000000000000');

    const { out, counts } = await countedRun([...kept, orphan]);

    expect(out.batchItemFailures).toEqual([]);
    expect(rx.received).toHaveLength(2);
    expect(counts.BatchWriteItemCommand).toBe(1);
    expect(await listAttempts(orgId, sub.id, 10, 0)).toHaveLength(2);
    expect(await listAttempts(orgId, orphan.subscriptionId, 10, 0)).toEqual([]);
  });
});

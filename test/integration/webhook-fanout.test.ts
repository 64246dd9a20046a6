/**
 * Outbox fan-out (DynamoDB Streams → SQS) against DynamoDB Local with SQS mocked: one message per active
 * matching subscription, `webhook.test` only to its target, other records ignored, replays skip finished
 * deliveries, the events of a batch share SendMessageBatch calls, and an SQS failure reports the failed records'
 * sequence numbers.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { createWebhook, type WebhookInput } from '#db/webhooks';
import { recordAttempt, type DeliveryMessage } from '#db/webhook-deliveries';
import type { EventEnvelope } from '#events/outbox';
import { outboxPut } from '#db/outbox';
import type { EventType } from '#events/catalog';
import { resetSqsClient } from '#ports/sqs';
import { handler } from '#functions/webhook-fanout/handler';
import { useTestTable } from '../support/test-table.ts';
import { newOrgId, QUEUE_URL } from './webhook-fixtures.ts';
import { captureTelemetry, type Telemetry } from '../support/telemetry.ts';

// Error lines on, to assert that a failed record is logged (test/support/telemetry.ts).
vi.hoisted(() => Object.assign(process.env, { POWERTOOLS_LOG_LEVEL: 'ERROR' }));

const sqsMock = mockClient(SQSClient);
const savedQueue = process.env.WEBHOOK_QUEUE_URL;
let seq = 1000;

beforeAll(async () => {
  await useTestTable();
  process.env.WEBHOOK_QUEUE_URL = QUEUE_URL;
  resetSqsClient();
});
afterAll(() => {
  if (savedQueue === undefined) delete process.env.WEBHOOK_QUEUE_URL;
  else process.env.WEBHOOK_QUEUE_URL = savedQueue;
  sqsMock.restore();
});
beforeEach(() => {
  sqsMock.reset();
  sqsMock.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
});

const subscribe = (orgId: string, over: Partial<WebhookInput> = {}) => createWebhook(orgId, { name: 'hook', url: 'https://1.1.1.1/hook', events: ['*'], ...over }, new Date());

/** A stream record of the outbox item `outboxPut` writes (or of any other item). */
function streamRecord(item: Record<string, unknown>, eventName: 'INSERT' | 'MODIFY' | 'REMOVE' = 'INSERT'): DynamoDBRecord {
  const SequenceNumber = String(++seq);
  return { eventID: SequenceNumber, eventName, eventSource: 'aws:dynamodb', dynamodb: { Keys: marshall({ PK: item.PK, SK: item.SK }) as any, NewImage: marshall(item, { removeUndefinedValues: true }) as any, SequenceNumber, StreamViewType: 'NEW_IMAGE' } };
}
function outboxRecord(orgId: string, eventType: EventType, data: Record<string, unknown> = { taskId: 't-1' }) {
  // Fan-out reads only the envelope's type and organization: any thin payload will do.
  const item = outboxPut({ orgId, userId: 'user-1' }, eventType, data as never).Put.Item;
  return { record: streamRecord(item), envelope: item.envelope };
}
/** The delivery messages of every SendMessageBatch call. */
const sent = (): DeliveryMessage[] =>
  sqsMock.commandCalls(SendMessageBatchCommand).flatMap((c) => (c.args[0].input.Entries ?? []).map((e) => JSON.parse(e.MessageBody!) as DeliveryMessage));

describe('fan-out', () => {
  it('sends one message per active subscription that wants the event type', async () => {
    const orgId = await newOrgId();
    const all = await subscribe(orgId, { events: ['*'] });
    const tasks = await subscribe(orgId, { events: ['task.created', 'task.completed'] });
    await subscribe(orgId, { events: ['task.created'], isActive: false });
    await subscribe(orgId, { events: ['contact.created'] });
    const { record, envelope } = outboxRecord(orgId, 'task.created');

    const out = await handler({ Records: [record] });

    expect(out.batchItemFailures).toEqual([]);
    expect(sqsMock).toHaveReceivedCommandTimes(SendMessageBatchCommand, 1);
    expect(sqsMock).toHaveReceivedCommandWith(SendMessageBatchCommand, { QueueUrl: QUEUE_URL });
    const messages = sent();
    expect(messages.map((m) => m.subscriptionId).sort()).toEqual([all.id, tasks.id].sort());
    for (const m of messages) {
      expect(m).toMatchObject({ orgId, eventId: envelope.eventId, eventType: 'task.created' });
      expect(JSON.parse(m.payload) as EventEnvelope).toEqual(envelope);
    }
  });

  it('sends nothing when no subscription matches, or for another organization', async () => {
    const orgId = await newOrgId();
    const other = await newOrgId();
    await subscribe(orgId, { events: ['contact.created'] });
    await subscribe(other, { events: ['*'] });
    const out = await handler({ Records: [outboxRecord(orgId, 'task.created').record] });
    expect(out.batchItemFailures).toEqual([]);
    expect(sqsMock).not.toHaveReceivedCommand(SendMessageBatchCommand);
  });

  it('sends webhook.test only to the subscription it names', async () => {
    const orgId = await newOrgId();
    await subscribe(orgId, { events: ['*'] });
    const target = await subscribe(orgId, { events: ['contact.created'] });
    await handler({ Records: [outboxRecord(orgId, 'webhook.test', { subscriptionId: target.id }).record] });
    expect(sent().map((m) => [m.subscriptionId, m.eventType])).toEqual([[target.id, 'webhook.test']]);
  });

  it('batches more than 10 messages into several SendMessageBatch calls', async () => {
    const orgId = await newOrgId();
    for (let i = 0; i < 12; i++) await subscribe(orgId);
    await handler({ Records: [outboxRecord(orgId, 'transaction.created', { transactionId: 'tx-1' }).record] });
    const sizes = sqsMock.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input.Entries!.length);
    expect(sizes).toEqual([10, 2]);
    expect(new Set(sent().map((m) => m.subscriptionId)).size).toBe(12);
  });

  it('sends the messages of all the events of a batch together, 10 per SendMessageBatch', async () => {
    const orgId = await newOrgId();
    await subscribe(orgId);
    await subscribe(orgId);
    const records = Array.from({ length: 12 }, () => outboxRecord(orgId, 'task.created'));

    const out = await handler({ Records: records.map((r) => r.record) });

    expect(out.batchItemFailures).toEqual([]);
    const sizes = sqsMock.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input.Entries!.length);
    expect(sizes).toEqual([10, 10, 4]);
    const pairs = sent().map((m) => `${m.eventId}/${m.subscriptionId}`);
    expect(new Set(pairs).size).toBe(24);
    for (const e of sqsMock.commandCalls(SendMessageBatchCommand)) expect(new Set(e.args[0].input.Entries!.map((x) => x.Id)).size).toBe(e.args[0].input.Entries!.length);
  });

  it('ignores MODIFY and REMOVE records and items that are not outbox events', async () => {
    const orgId = await newOrgId();
    const sub = await subscribe(orgId);
    const item = outboxPut({ orgId, userId: null }, 'task.created', { taskId: 't-1', transactionId: 'tx-1', title: 'Order survey', dueDate: null, assigneeUserId: null }).Put.Item;
    const out = await handler({ Records: [streamRecord(item, 'MODIFY'), streamRecord(item, 'REMOVE'), streamRecord({ PK: `ORG#${orgId}`, SK: `WEBHOOK#${sub.id}`, entity: 'Webhook', ...sub })] });
    expect(out.batchItemFailures).toEqual([]);
    expect(sqsMock).not.toHaveReceivedCommand(SendMessageBatchCommand);
  });
});

describe('replays', () => {
  it('a replayed record whose delivery succeeded sends nothing; a still-pending one is sent again', async () => {
    const orgId = await newOrgId();
    const done = await subscribe(orgId);
    const pending = await subscribe(orgId);
    const { record, envelope } = outboxRecord(orgId, 'task.completed');
    await handler({ Records: [record] });
    const now = new Date();
    await recordAttempt(orgId, { subscriptionId: done.id, eventId: envelope.eventId, eventType: 'task.completed', attempt: 1, attemptedAt: now.toISOString(), ok: true, statusCode: 200, latencyMs: 5, error: null, nextRetryAt: null, outcome: 'succeeded' }, now);
    sqsMock.resetHistory();

    const out = await handler({ Records: [record] });

    expect(out.batchItemFailures).toEqual([]);
    expect(sent().map((m) => m.subscriptionId)).toEqual([pending.id]);
  });

  it('nothing is re-sent once every delivery of the event has finished', async () => {
    const orgId = await newOrgId();
    const sub = await subscribe(orgId);
    const { record, envelope } = outboxRecord(orgId, 'task.completed');
    await handler({ Records: [record] });
    const now = new Date();
    await recordAttempt(orgId, { subscriptionId: sub.id, eventId: envelope.eventId, eventType: 'task.completed', attempt: 7, attemptedAt: now.toISOString(), ok: false, statusCode: 500, latencyMs: 5, error: 'status 500', nextRetryAt: null, outcome: 'failed' }, now);
    sqsMock.resetHistory();
    await handler({ Records: [record] });
    expect(sqsMock).not.toHaveReceivedCommand(SendMessageBatchCommand);
  });
});

describe('failures', () => {
  let t: Telemetry;
  beforeEach(() => {
    t = captureTelemetry();
  });
  afterEach(() => t.restore());

  it('an entry SQS refuses fails only its own record, reported by its sequence number; the others are sent', async () => {
    const orgId = await newOrgId();
    await subscribe(orgId);
    const first = outboxRecord(orgId, 'task.created');
    const second = outboxRecord(orgId, 'task.created');
    const third = outboxRecord(orgId, 'task.created');
    sqsMock.on(SendMessageBatchCommand).callsFake((input: { Entries: { Id: string; MessageBody: string }[] }) => {
      const refused = input.Entries.filter((e) => e.MessageBody.includes(second.envelope.eventId));
      return { Successful: input.Entries.filter((e) => !refused.includes(e)).map((e) => ({ Id: e.Id, MessageId: `m-${e.Id}`, MD5OfMessageBody: '' })), Failed: refused.map((e) => ({ Id: e.Id, SenderFault: false, Code: 'InternalError' })) };
    });

    const out = await handler({ Records: [first.record, second.record, third.record] });

    expect(out.batchItemFailures).toEqual([{ itemIdentifier: second.record.dynamodb!.SequenceNumber }]);
    expect(sqsMock).toHaveReceivedCommandTimes(SendMessageBatchCommand, 1); // the three events' messages in one call
    expect(sent().map((m) => m.eventId).sort()).toEqual([first, second, third].map((r) => r.envelope.eventId).sort());
    const [line] = t.logs();
    expect(line).toMatchObject({ level: 'ERROR', message: 'fan-out failed', orgId, eventId: second.envelope.eventId, error: { message: expect.stringContaining('InternalError') } });
  });

  it('a failed call fails every record with a message in it, and only those', async () => {
    const orgId = await newOrgId();
    await subscribe(orgId);
    const records = Array.from({ length: 12 }, () => outboxRecord(orgId, 'task.created'));
    const doomed = records[11].envelope.eventId;
    const inFailedCall = new Set<string>();
    sqsMock.on(SendMessageBatchCommand).callsFake((input: { Entries: { MessageBody: string }[] }) => {
      const ids = input.Entries.map((e) => (JSON.parse(e.MessageBody) as DeliveryMessage).eventId);
      if (!ids.includes(doomed)) return { Successful: [], Failed: [] };
      ids.forEach((id) => inFailedCall.add(id));
      throw new Error('SQS down');
    });

    const out = await handler({ Records: records.map((r) => r.record) });

    expect(sqsMock.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input.Entries!.length).sort((a, b) => a - b)).toEqual([2, 10]);
    const failed = records.filter((r) => inFailedCall.has(r.envelope.eventId)).map((r) => r.record.dynamodb!.SequenceNumber);
    expect(failed.length).toBeGreaterThan(0);
    // Every failed record is named (in completion order): Lambda and the local poller retry from the lowest.
    expect(out.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual([...failed].sort());
    expect(t.logs().filter((l) => l.message === 'fan-out failed')).toHaveLength(failed.length);
  });

  it('a partial batch failure (Failed entries) is reported too', async () => {
    const orgId = await newOrgId();
    await subscribe(orgId);
    const { record } = outboxRecord(orgId, 'task.created');
    sqsMock.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [{ Id: '0', SenderFault: false, Code: 'InternalError' }] });
    const out = await handler({ Records: [record] });
    expect(out.batchItemFailures).toEqual([{ itemIdentifier: record.dynamodb!.SequenceNumber }]);
  });

  it('after a failure, the stream retry sends the still-pending delivery', async () => {
    const orgId = await newOrgId();
    const sub = await subscribe(orgId);
    const { record } = outboxRecord(orgId, 'task.created');
    sqsMock.on(SendMessageBatchCommand).rejectsOnce(new Error('throttled')).resolves({ Successful: [], Failed: [] });
    expect((await handler({ Records: [record] })).batchItemFailures).toHaveLength(1);
    expect((await handler({ Records: [record] })).batchItemFailures).toEqual([]);
    expect(sent().map((m) => m.subscriptionId)).toEqual([sub.id, sub.id]);
  });
});

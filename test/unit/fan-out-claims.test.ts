/**
 * Fan-out's claims within one stream batch (shared/use-cases/fan-out.ts `fanOutBatch`), DynamoDB and SQS mocked: the
 * subscriptions are read once, the claims of all the batch's events go out 50 at a time (the SDK's socket pool) and
 * not one round after another per event, and an event's notifications do not wait for its sends.
 * (Against DynamoDB Local: test/integration/webhook-fanout.test.ts.)
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { resetDbClient } from '#db/client';
import { resetSqsClient } from '#ports/sqs';
import type { EventEnvelope } from '#events/outbox';
import { fanOutBatch } from '#use-cases/fan-out';

const ddb = mockClient(DynamoDBDocumentClient);
const sqsMock = mockClient(SQSClient);
const NOW = new Date('2030-03-01T12:00:00.000Z');
const subscription = { id: 'sub-1', orgId: 'org-1', name: 'hook', url: 'https://example.com/hook', events: ['*'], isActive: true, circuitBreakerEnabled: true, secret: 's', createdAt: NOW.toISOString(), updatedAt: NOW.toISOString() };
const envelope = (i: number): EventEnvelope =>
  ({ eventType: 'key_date.updated', eventId: `e${i}`, timestamp: NOW.toISOString(), organizationId: 'org-1', userId: null, data: { transactionId: 't1', keyDateType: 'ClosingDate', dateValue: '2030-04-01' } }) as unknown as EventEnvelope;
/** Lets pending promise callbacks run. */
const flush = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => {
  vi.stubEnv('TABLE_NAME', 'unit-table');
  vi.stubEnv('WEBHOOK_QUEUE_URL', 'https://sqs.local/000000000000/webhook-deliveries');
  resetDbClient();
  resetSqsClient();
  ddb.reset();
  sqsMock.reset();
  ddb.on(QueryCommand).resolves({ Items: [subscription] });
  sqsMock.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
});
afterEach(() => vi.unstubAllEnvs());
afterAll(() => {
  ddb.restore();
  sqsMock.restore();
});

describe('fanOutBatch claims', () => {
  it('claims the deliveries of a 60-event batch 50 at a time, reading the subscriptions once', async () => {
    const answers: (() => void)[] = [];
    ddb.on(PutCommand).callsFake(() => new Promise((resolve) => answers.push(() => resolve({}))));
    const fanOut = fanOutBatch(NOW);

    const done = Promise.all(Array.from({ length: 60 }, (_, i) => fanOut(envelope(i))));
    await flush();
    expect(ddb).toHaveReceivedCommandTimes(QueryCommand, 1);
    expect(answers).toHaveLength(50); // in flight together, the rest waiting for a slot
    for (const answer of answers.splice(0)) answer();
    await flush();
    expect(answers).toHaveLength(10);
    for (const answer of answers.splice(0)) answer();
    await done;

    expect(ddb).toHaveReceivedCommandTimes(PutCommand, 60);
    const sent = sqsMock.commandCalls(SendMessageBatchCommand).flatMap((c) => c.args[0].input.Entries!.map((e) => JSON.parse(e.MessageBody!).eventId));
    expect(sent.sort()).toEqual(Array.from({ length: 60 }, (_, i) => `e${i}`).sort());
  });

  it("stores an event's notification while its delivery messages are still being sent", async () => {
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':user': 'USER#' } }).resolves({ Items: [{ userId: 'u1', role: 'owner' }] });
    ddb.on(PutCommand).resolves({});
    let sendAnswered!: () => void;
    sqsMock.on(SendMessageBatchCommand).callsFake(() => new Promise((resolve) => (sendAnswered = () => resolve({ Successful: [], Failed: [] }))));
    const submitted = { ...envelope(1), eventType: 'form.submission_received', data: { submissionId: 's1', formDefinitionId: 'f1', formPurpose: 'buyer_intake', transactionId: 't1' } } as unknown as EventEnvelope;

    const done = fanOutBatch(NOW)(submitted);
    await flush();
    expect(sqsMock).toHaveReceivedCommandTimes(SendMessageBatchCommand, 1); // not answered yet
    const stored = ddb.commandCalls(PutCommand).map((c) => c.args[0].input.Item?.entity);
    expect(stored).toEqual(expect.arrayContaining(['WebhookDelivery', 'Notification']));
    sendAnswered();
    await done;
  });
});

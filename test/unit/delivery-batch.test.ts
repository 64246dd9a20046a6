/**
 * The delivery worker's per-batch sharing (shared/use-cases/delivery-batch.ts), DynamoDB and SQS mocked: the attempt
 * items wait for the rest of the batch (or 1 s), one `BatchWriteItem` for several and a `PutItem` for one, each
 * delivery record is moved at once, a failed write fails every attempt of the batch, the retries' visibility changes
 * go together, and the subscription is read once. The breaker's writes per batch: test/unit/delivery-breaker.test.ts.
 * (Against DynamoDB Local and a real receiver: test/integration/webhook-delivery-batch.test.ts.)
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ChangeMessageVisibilityBatchCommand, ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import { resetSqsClient } from '#ports/sqs';
import { resetDbClient } from '#db/client';
import type { DeliveryAttempt } from '#db/webhook-deliveries';
import { deliveryBatch } from '#use-cases/delivery-batch';

const ddb = mockClient(DynamoDBDocumentClient);
const sqsMock = mockClient(SQSClient);
const QUEUE_URL = 'https://sqs.local/000000000000/webhook-deliveries';
const NOW = new Date('2030-03-01T12:00:00.000Z');
const attempt = (eventId: string): DeliveryAttempt => ({
  subscriptionId: 'sub-1', eventId, eventType: 'task.created', attempt: 1, attemptedAt: NOW.toISOString(), ok: true, statusCode: 200, latencyMs: 5, error: null, nextRetryAt: null, outcome: 'succeeded',
});
/** Lets pending promise callbacks run (the writes are sent from them). */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubEnv('TABLE_NAME', 'unit-table');
  vi.stubEnv('WEBHOOK_QUEUE_URL', QUEUE_URL);
  resetDbClient();
  resetSqsClient();
  ddb.reset();
  sqsMock.reset();
  sqsMock.on(ChangeMessageVisibilityCommand).resolves({});
  sqsMock.on(ChangeMessageVisibilityBatchCommand).resolves({ Successful: [], Failed: [] });
  ddb.on(UpdateCommand).resolves({});
  ddb.on(PutCommand).resolves({});
  ddb.on(BatchWriteCommand).resolves({ UnprocessedItems: {} });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});
afterAll(() => {
  ddb.restore();
  sqsMock.restore();
});

describe('deliveryBatch', () => {
  it('writes the attempt items of the batch together once the last message has its attempt or is released', async () => {
    const batch = deliveryBatch(3);
    const a = batch.recordAttempt('org-1', attempt('e1'), NOW);
    const b = batch.recordAttempt('org-1', attempt('e2'), NOW);
    await settle();
    expect(ddb).not.toHaveReceivedCommand(BatchWriteCommand);
    expect(ddb).toHaveReceivedCommandTimes(UpdateCommand, 2); // the delivery records do not wait

    batch.release();
    await Promise.all([a, b]);

    expect(ddb).toHaveReceivedCommandTimes(BatchWriteCommand, 1);
    const requests = ddb.commandCalls(BatchWriteCommand)[0].args[0].input.RequestItems!['unit-table'];
    expect(requests.map((r) => r.PutRequest?.Item?.SK)).toEqual([`ATT#${NOW.toISOString()}#e1#001`, `ATT#${NOW.toISOString()}#e2#001`]);
    expect(ddb).not.toHaveReceivedCommand(PutCommand);
  });

  it('writes a waiting attempt after 1 s when the rest of the batch is slow, with PutItem for one item', async () => {
    const batch = deliveryBatch(2);
    const a = batch.recordAttempt('org-1', attempt('e1'), NOW);
    await vi.advanceTimersByTimeAsync(999);
    expect(ddb).not.toHaveReceivedCommand(PutCommand);
    await vi.advanceTimersByTimeAsync(1);
    await a;
    expect(ddb).toHaveReceivedCommandTimes(PutCommand, 1);
    expect(ddb).not.toHaveReceivedCommand(BatchWriteCommand);
  });

  it('fails every attempt of the batch when their write fails (the worker then leaves the messages to SQS)', async () => {
    ddb.on(BatchWriteCommand).rejects(new Error('throttled'));
    const batch = deliveryBatch(2);
    const results = Promise.allSettled([batch.recordAttempt('org-1', attempt('e1'), NOW), batch.recordAttempt('org-1', attempt('e2'), NOW)]);
    expect((await results).map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('sets the retries\' visibility together with the attempt items: one ChangeMessageVisibilityBatch', async () => {
    const batch = deliveryBatch(3);
    const a = batch.recordAttempt('org-1', attempt('e1'), NOW, { receiptHandle: 'rh-1', visibilitySeconds: 60 });
    const b = batch.recordAttempt('org-1', attempt('e2'), NOW, { receiptHandle: 'rh-2', visibilitySeconds: 0 });
    await settle();
    expect(sqsMock).not.toHaveReceivedCommand(ChangeMessageVisibilityBatchCommand);

    await batch.recordAttempt('org-1', attempt('e3'), NOW); // a success: nothing to retry
    await Promise.all([a, b]);

    expect(sqsMock).toHaveReceivedCommandTimes(ChangeMessageVisibilityBatchCommand, 1);
    expect(sqsMock).not.toHaveReceivedCommand(ChangeMessageVisibilityCommand);
    expect(sqsMock.commandCalls(ChangeMessageVisibilityBatchCommand)[0].args[0].input).toEqual({
      QueueUrl: QUEUE_URL,
      Entries: [{ Id: '0', ReceiptHandle: 'rh-1', VisibilityTimeout: 60 }, { Id: '1', ReceiptHandle: 'rh-2', VisibilityTimeout: 0 }],
    });
  });

  it('uses ChangeMessageVisibility for a single retry, and fails only the attempt whose visibility SQS refused', async () => {
    const single = deliveryBatch(1);
    await single.recordAttempt('org-1', attempt('e1'), NOW, { receiptHandle: 'rh-1', visibilitySeconds: 30 });
    expect(sqsMock).toHaveReceivedCommandWith(ChangeMessageVisibilityCommand, { QueueUrl: QUEUE_URL, ReceiptHandle: 'rh-1', VisibilityTimeout: 30 });

    sqsMock.on(ChangeMessageVisibilityBatchCommand).resolves({ Successful: [{ Id: '0' }], Failed: [{ Id: '1', Code: 'ReceiptHandleIsInvalid', SenderFault: true }] });
    const batch = deliveryBatch(2);
    const results = await Promise.allSettled([
      batch.recordAttempt('org-1', attempt('e2'), NOW, { receiptHandle: 'rh-2', visibilitySeconds: 30 }),
      batch.recordAttempt('org-1', attempt('e3'), NOW, { receiptHandle: 'rh-3', visibilitySeconds: 30 }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect((results[1] as PromiseRejectedResult).reason.message).toContain('ReceiptHandleIsInvalid');
  });

  it('reads a subscription once per batch, consistently', async () => {
    ddb.on(GetCommand).resolves({ Item: { id: 'sub-1', orgId: 'org-1', events: ['*'], isActive: true, consecutiveFailures: 0 } });
    const batch = deliveryBatch(3);
    await Promise.all([batch.subscription('org-1', 'sub-1'), batch.subscription('org-1', 'sub-1')]);
    expect(ddb).toHaveReceivedCommandTimes(GetCommand, 1);
    expect(ddb.commandCalls(GetCommand)[0].args[0].input.ConsistentRead).toBe(true);
  });
});

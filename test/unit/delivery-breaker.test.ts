/**
 * The circuit breaker's writes per SQS batch (shared/use-cases/delivery-breaker.ts), DynamoDB mocked: one write per
 * subscription once every message has counted (or 1 s), the failures added together, a success in the batch
 * clearing the count instead, a clear skipped when the batch's read shows none, and a trip dropping every failure of
 * the batch. (Against DynamoDB Local: test/integration/webhook-delivery-batch.test.ts and
 * test/integration/webhook-delivery-breaker.test.ts.)
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { resetDbClient } from '#db/client';
import { CIRCUIT_BREAKER_THRESHOLD, type WebhookSubscription } from '#db/webhooks';
import { batchBreaker } from '#use-cases/delivery-breaker';

const ddb = mockClient(DynamoDBDocumentClient);
const T1 = new Date('2030-03-01T12:00:00.000Z');
const T2 = new Date('2030-03-01T12:00:01.000Z');
const ADD = 'ADD consecutiveFailures :n';
const CLEAR = 'SET consecutiveFailures = :z';
const PAUSE = 'SET isActive = :f, pausedAt = :at, pausedReason = :r';
/** The subscription item after an `ADD`, as `ReturnValues: ALL_NEW` gives it. */
const afterAdd = (consecutiveFailures: number, circuitBreakerEnabled = true) => ({ Attributes: { id: 'sub-1', isActive: true, circuitBreakerEnabled, consecutiveFailures } });
const read = (consecutiveFailures: number) => Promise.resolve({ consecutiveFailures } as WebhookSubscription);
const updates = () => ddb.commandCalls(UpdateCommand).map((c) => c.args[0].input);

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubEnv('TABLE_NAME', 'unit-table');
  resetDbClient();
  ddb.reset();
  ddb.on(UpdateCommand).resolves({});
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});
afterAll(() => ddb.restore());

describe('batchBreaker', () => {
  it("adds a batch's failures of a subscription in one write, once every message has counted or said it will not", async () => {
    ddb.on(UpdateCommand, { UpdateExpression: ADD }).resolves(afterAdd(2));
    const breaker = batchBreaker(3, () => read(0));
    const outcomes = Promise.all([breaker.count('org-1', 'sub-1', false, T2), breaker.count('org-1', 'sub-1', false, T1)]);
    await vi.advanceTimersByTimeAsync(0);
    expect(ddb).not.toHaveReceivedCommand(UpdateCommand); // one message still open

    breaker.uncounted();

    expect(await outcomes).toEqual(['counted', 'counted']);
    expect(updates()).toEqual([expect.objectContaining({ Key: { PK: 'ORG#org-1', SK: 'WEBHOOK#sub-1' }, UpdateExpression: ADD, ExpressionAttributeValues: { ':n': 2 } })]);
  });

  it('writes what it has 1 s after the first count when the rest of the batch is slow; later counts get their own write', async () => {
    ddb.on(UpdateCommand, { UpdateExpression: ADD }).resolves(afterAdd(1));
    const breaker = batchBreaker(2, () => read(0));
    const first = breaker.count('org-1', 'sub-1', false, T1);
    await vi.advanceTimersByTimeAsync(999);
    expect(ddb).not.toHaveReceivedCommand(UpdateCommand);
    await vi.advanceTimersByTimeAsync(1);
    expect(await first).toBe('counted');
    expect(updates()).toHaveLength(1);

    expect(await breaker.count('org-1', 'sub-1', false, T2)).toBe('counted');
    expect(updates().map((u) => u.ExpressionAttributeValues)).toEqual([{ ':n': 1 }, { ':n': 1 }]);
  });

  it('clears the count instead when the batch has a success among its failures: one conditional write, no ADD', async () => {
    const breaker = batchBreaker(3, () => read(0));
    const outcomes = await Promise.all([breaker.count('org-1', 'sub-1', false, T1), breaker.count('org-1', 'sub-1', true, T1), breaker.count('org-1', 'sub-1', false, T2)]);

    expect(outcomes).toEqual(['counted', 'counted', 'counted']); // the failures are retried
    expect(updates()).toEqual([expect.objectContaining({ UpdateExpression: CLEAR, ConditionExpression: 'consecutiveFailures > :z' })]);
  });

  it('clears for successes alone only when the read shows a count (or there was no read), and once per batch', async () => {
    const none = batchBreaker(2, () => read(0));
    await Promise.all([none.count('org-1', 'sub-1', true, T1), none.count('org-1', 'sub-1', true, T1)]);
    expect(ddb).not.toHaveReceivedCommand(UpdateCommand);

    const some = batchBreaker(2, () => read(4));
    const lingered = some.count('org-1', 'sub-1', true, T1);
    await vi.advanceTimersByTimeAsync(1000);
    await lingered;
    some.uncounted();
    expect(updates().map((u) => u.UpdateExpression)).toEqual([CLEAR]);

    const unread = batchBreaker(1, () => undefined);
    await unread.count('org-1', 'sub-1', true, T1);
    expect(updates()).toHaveLength(2);

    // A later write of the same batch knows it cleared the count: successes after it write nothing.
    const rounds = batchBreaker(3, () => read(4));
    const early = rounds.count('org-1', 'sub-1', true, T1);
    await vi.advanceTimersByTimeAsync(1000);
    await early;
    expect(updates()).toHaveLength(3);
    const late = rounds.count('org-1', 'sub-1', true, T2);
    await vi.advanceTimersByTimeAsync(1000);
    await late;
    expect(updates()).toHaveLength(3);
  });

  it('writes each subscription of the batch apart', async () => {
    ddb.on(UpdateCommand, { UpdateExpression: ADD }).resolves(afterAdd(1));
    const breaker = batchBreaker(3, () => read(0));
    await Promise.all([breaker.count('org-1', 'sub-1', false, T1), breaker.count('org-1', 'sub-2', false, T1), breaker.count('org-2', 'sub-1', false, T1)]);
    expect(updates().map((u) => u.Key)).toEqual([
      { PK: 'ORG#org-1', SK: 'WEBHOOK#sub-1' },
      { PK: 'ORG#org-1', SK: 'WEBHOOK#sub-2' },
      { PK: 'ORG#org-2', SK: 'WEBHOOK#sub-1' },
    ]);
    expect(updates().map((u) => u.ExpressionAttributeValues)).toEqual([{ ':n': 1 }, { ':n': 1 }, { ':n': 1 }]);
  });

  it("trips at the threshold: pauses at the earliest failure's time; the first failure 'tripped', the others 'paused'", async () => {
    ddb.on(UpdateCommand, { UpdateExpression: ADD }).resolves(afterAdd(CIRCUIT_BREAKER_THRESHOLD + 1));
    const breaker = batchBreaker(2, () => read(CIRCUIT_BREAKER_THRESHOLD - 1));
    const outcomes = await Promise.all([breaker.count('org-1', 'sub-1', false, T2), breaker.count('org-1', 'sub-1', false, T1)]);

    expect(outcomes).toEqual(['tripped', 'paused']);
    expect(updates()[1]).toMatchObject({ UpdateExpression: PAUSE, ExpressionAttributeValues: expect.objectContaining({ ':at': T1.toISOString(), ':n': CIRCUIT_BREAKER_THRESHOLD }) });
  });

  it('does not trip a disabled breaker, nor one another batch paused first', async () => {
    ddb.on(UpdateCommand, { UpdateExpression: ADD }).resolves(afterAdd(CIRCUIT_BREAKER_THRESHOLD, false));
    expect(await batchBreaker(1, () => read(0)).count('org-1', 'sub-1', false, T1)).toBe('counted');
    expect(updates().map((u) => u.UpdateExpression)).toEqual([ADD]);

    ddb.on(UpdateCommand, { UpdateExpression: ADD }).resolves(afterAdd(CIRCUIT_BREAKER_THRESHOLD));
    ddb.on(UpdateCommand, { UpdateExpression: PAUSE }).rejects(new ConditionalCheckFailedException({ message: 'paused already', $metadata: {} }));
    expect(await batchBreaker(1, () => read(0)).count('org-1', 'sub-1', false, T1)).toBe('counted');
  });

  it("rejects every count of the subscription when its write fails", async () => {
    ddb.on(UpdateCommand).rejects(new Error('throttled'));
    const breaker = batchBreaker(2, () => read(0));
    const results = await Promise.allSettled([breaker.count('org-1', 'sub-1', false, T1), breaker.count('org-1', 'sub-1', false, T1)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});

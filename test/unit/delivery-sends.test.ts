/**
 * Fan-out's delivery sends (shared/use-cases/delivery-sends.ts), SQS mocked: the messages of concurrent events share
 * `SendMessageBatch` calls within SQS's 10-entry and 256 KiB quotas, the rest goes once no event is still claiming,
 * a refused entry fails only its own event, and a failed call fails every event with an entry in it.
 */
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { DeliveryMessage } from '#db/webhook-deliveries';
import { resetSqsClient } from '#ports/sqs';
import { deliverySends, SQS_BATCH_BYTES } from '#use-cases/delivery-sends';

const sqsMock = mockClient(SQSClient);
const QUEUE_URL = 'https://sqs.local/000000000000/webhook-deliveries';
const message = (eventId: string, payload = '{}'): DeliveryMessage => ({ orgId: 'org-1', subscriptionId: 'sub-1', eventId, eventType: 'task.created', payload });
const calls = () => sqsMock.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input.Entries!.map((e) => (JSON.parse(e.MessageBody!) as DeliveryMessage).eventId));

beforeEach(() => {
  vi.stubEnv('WEBHOOK_QUEUE_URL', QUEUE_URL);
  resetSqsClient();
  sqsMock.reset();
  sqsMock.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
});
afterAll(() => {
  vi.unstubAllEnvs();
  sqsMock.restore();
});

describe('deliverySends', () => {
  it('sends the messages of events claimed together in calls of 10, the rest once every event has its messages', async () => {
    const accepted: number[] = [];
    const sends = deliverySends((n) => accepted.push(n));
    const events = Array.from({ length: 5 }, (_, e) => Array.from({ length: 3 }, (_, i) => message(`e${e}-${i}`)));

    const counts = await Promise.all(events.map((ms) => sends.send(async () => ms)));

    expect(counts).toEqual([3, 3, 3, 3, 3]);
    expect(calls().map((c) => c.length)).toEqual([10, 5]);
    expect(calls().flat().sort()).toEqual(events.flat().map((m) => m.eventId).sort());
    expect(sqsMock).toHaveReceivedCommandWith(SendMessageBatchCommand, { QueueUrl: QUEUE_URL });
    expect(accepted).toEqual([10, 5]);
  });

  it('waits for an event still claiming before sending a partial chunk', async () => {
    const sends = deliverySends(() => undefined);
    let release!: (ms: DeliveryMessage[]) => void;
    const slow = sends.send(() => new Promise((resolve) => (release = resolve)));
    const fast = sends.send(async () => [message('fast')]);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(sqsMock).not.toHaveReceivedCommand(SendMessageBatchCommand);

    release([message('slow')]);
    await Promise.all([slow, fast]);

    expect(calls()).toEqual([['fast', 'slow']]);
  });

  it('starts a new call when the next body would pass 256 KiB', async () => {
    const sends = deliverySends(() => undefined);
    const big = 'x'.repeat(Math.floor(SQS_BATCH_BYTES / 3));
    await sends.send(async () => ['a', 'b', 'c', 'd'].map((id) => message(id, big)));
    expect(calls()).toEqual([['a', 'b'], ['c', 'd']]);
    for (const c of sqsMock.commandCalls(SendMessageBatchCommand)) {
      const bytes = c.args[0].input.Entries!.reduce((sum, e) => sum + Buffer.byteLength(e.MessageBody!), 0);
      expect(bytes).toBeLessThanOrEqual(SQS_BATCH_BYTES);
    }
  });

  it('fails only the event whose entry SQS refused, and every event of a call that fails', async () => {
    sqsMock.on(SendMessageBatchCommand).resolvesOnce({ Successful: [{ Id: '0', MessageId: 'm', MD5OfMessageBody: '' }], Failed: [{ Id: '1', SenderFault: false, Code: 'InternalError' }] });
    const sends = deliverySends(() => undefined);
    const results = await Promise.allSettled([sends.send(async () => [message('ok')]), sends.send(async () => [message('refused')])]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect((results[1] as PromiseRejectedResult).reason.message).toContain('InternalError');

    sqsMock.on(SendMessageBatchCommand).rejects(new Error('SQS down'));
    const again = deliverySends(() => undefined);
    const failed = await Promise.allSettled([again.send(async () => [message('x')]), again.send(async () => [message('y')]), again.send(async () => [])]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
  });

  it('rethrows what the claims throw, and still sends the other events\' messages', async () => {
    const sends = deliverySends(() => undefined);
    const results = await Promise.allSettled([sends.send(async () => Promise.reject(new Error('claim failed'))), sends.send(async () => [message('kept')])]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
    expect(calls()).toEqual([['kept']]);
  });
});

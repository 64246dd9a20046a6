/**
 * The local event sources deliver the same event shapes as AWS: the SQS poller over local-aws-sqs
 * (ReportBatchItemFailures, visibility-based retries, redrive to the DLQ) and the DynamoDB Streams poller
 * over DynamoDB Local (outbox filter, partial-failure retry, checkpoints across restarts). The handlers
 * here are small stand-ins that record what they receive.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeMessageVisibilityCommand, DeleteMessageBatchCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import { DescribeTableCommand, DynamoDBClient, PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { useTestTable } from '../support/test-table.ts';
import { startLocalSqs, type LocalSqs } from '#lib/local/sqs-local';
import { startSqsPoller, WEBHOOK_DELIVERY_POLLING } from '#lib/local/sqs-poller';
import { startStreamPoller, type StreamCheckpoint } from '#lib/local/stream-poller';
import { resetSqsClient, sqs, webhookQueueUrl } from '#ports/sqs';

/** Polls `check` every 50 ms until it returns a truthy value. @throws when `timeoutMs` passes first */
async function waitFor<T>(what: string, check: () => T | Promise<T>, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const quietLog = (messages: string[]) => (message: string) => void messages.push(message);

describe('SQS poller over local-aws-sqs', () => {
  let local: LocalSqs;
  const savedSchedule = process.env.WEBHOOK_RETRY_SCHEDULE;

  beforeAll(async () => {
    process.env.WEBHOOK_RETRY_SCHEDULE = '1,1'; // maxAttempts() = 3
    local = await startLocalSqs();
    process.env.SQS_ENDPOINT = local.endpoint;
    process.env.WEBHOOK_QUEUE_URL = local.queueUrl;
    resetSqsClient();
  });
  afterAll(async () => {
    await local?.stop();
    if (savedSchedule === undefined) delete process.env.WEBHOOK_RETRY_SCHEDULE;
    else process.env.WEBHOOK_RETRY_SCHEDULE = savedSchedule;
    resetSqsClient();
  });

  it('creates the queue pair with the redrive policy', async () => {
    expect(local.maxReceiveCount).toBe(3);
    const { Attributes } = await sqs().send(new GetQueueAttributesCommand({ QueueUrl: local.queueUrl, AttributeNames: ['All'] }));
    expect(Attributes?.VisibilityTimeout).toBe('60');
    expect(JSON.parse(Attributes!.RedrivePolicy!)).toEqual({ deadLetterTargetArn: local.dlqArn, maxReceiveCount: 3 });
    expect(local.queueUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\d+\/webhook-deliveries$/);
  });

  it('a long poll returns the messages there are at once, as SQS does, instead of waiting to fill MaxNumberOfMessages', async () => {
    for (const body of ['now-1', 'now-2']) await sqs().send(new SendMessageCommand({ QueueUrl: local.queueUrl, MessageBody: body }));
    const started = Date.now();
    const { Messages = [] } = await sqs().send(new ReceiveMessageCommand({ QueueUrl: local.queueUrl, WaitTimeSeconds: 10, MaxNumberOfMessages: 10 }));
    // The engine alone would hold this receive for its whole 10 s wait (2 of the 10 messages asked for).
    expect(Date.now() - started).toBeLessThan(5000);
    expect(Messages.map((m) => m.Body).sort()).toEqual(['now-1', 'now-2']);
    await sqs().send(new DeleteMessageBatchCommand({ QueueUrl: local.queueUrl, Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
  });

  it('a waiting long poll answers with a message once it is sent, and with a retried one once its visibility ends', async () => {
    const receive = () => sqs().send(new ReceiveMessageCommand({ QueueUrl: local.queueUrl, WaitTimeSeconds: 20, MaxNumberOfMessages: 10, AttributeNames: ['All'] }));
    const started = Date.now();
    const waiting = receive();
    await new Promise((r) => setTimeout(r, 200));
    const sent = await sqs().send(new SendMessageCommand({ QueueUrl: local.queueUrl, MessageBody: 'later-1' }));
    const first = await waiting;
    // The engine alone would answer this long poll at the end of its 20 s wait.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(first.Messages?.map((m) => m.MessageId)).toEqual([sent.MessageId]);

    // A failed attempt's retry delay (its visibility): the next long poll gets it back once that ends, not before.
    await sqs().send(new ChangeMessageVisibilityCommand({ QueueUrl: local.queueUrl, ReceiptHandle: first.Messages![0].ReceiptHandle!, VisibilityTimeout: 1 }));
    const changedAt = Date.now();
    const again = await receive();
    expect(Date.now() - changedAt).toBeGreaterThanOrEqual(900);
    expect(Date.now() - changedAt).toBeLessThan(10_000);
    expect(again.Messages?.map((m) => [m.MessageId, m.Attributes?.ApproximateReceiveCount])).toEqual([[sent.MessageId, '2']]);
    await sqs().send(new DeleteMessageBatchCommand({ QueueUrl: local.queueUrl, Entries: [{ Id: '0', ReceiptHandle: again.Messages![0].ReceiptHandle! }] }));
  });

  it('stop() ends a poller\'s waiting long polls', async () => {
    const poller = startSqsPoller({ queueUrl: local.queueUrl, invoke: async () => undefined, waitTimeSeconds: 20, concurrency: 2, log: quietLog([]) });
    await new Promise((r) => setTimeout(r, 200)); // both loops are waiting in a receive
    const started = Date.now();
    await poller.stop();
    expect(Date.now() - started).toBeLessThan(10_000); // not the 20 s wait
    // The ended long polls take nothing sent afterwards (it would stay in flight for the 60 s visibility timeout).
    const sent = await sqs().send(new SendMessageCommand({ QueueUrl: local.queueUrl, MessageBody: 'after-stop' }));
    await new Promise((r) => setTimeout(r, 200));
    const { Attributes } = await sqs().send(new GetQueueAttributesCommand({ QueueUrl: local.queueUrl, AttributeNames: ['ApproximateNumberOfMessagesNotVisible'] }));
    expect(Attributes?.ApproximateNumberOfMessagesNotVisible).toBe('0');
    const { Messages = [] } = await sqs().send(new ReceiveMessageCommand({ QueueUrl: local.queueUrl, WaitTimeSeconds: 5, MaxNumberOfMessages: 10 }));
    expect(Messages.map((m) => m.MessageId)).toEqual([sent.MessageId]);
    await sqs().send(new DeleteMessageBatchCommand({ QueueUrl: local.queueUrl, Entries: [{ Id: '0', ReceiptHandle: Messages[0].ReceiptHandle! }] }));
  });

  it('the local delivery mapping long-polls: idle, each loop waits in one receive; a message is taken once sent, a retry once its visibility ends', async () => {
    const client = new SQSClient({ endpoint: local.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    let receives = 0;
    client.middlewareStack.add((next, context) => (args) => ((receives += Number((context as { commandName?: string }).commandName === 'ReceiveMessageCommand')), next(args)), { step: 'initialize' });
    const taken: { body: string; count: string; at: number }[] = [];
    let changedAt = 0;
    const standIn = async (event: SQSEvent): Promise<SQSBatchResponse> => {
      const failed: string[] = [];
      for (const r of event.Records) {
        taken.push({ body: r.body, count: r.attributes.ApproximateReceiveCount, at: Date.now() });
        if (r.attributes.ApproximateReceiveCount === '1') {
          await sqs().send(new ChangeMessageVisibilityCommand({ QueueUrl: local.queueUrl, ReceiptHandle: r.receiptHandle, VisibilityTimeout: 1 }));
          changedAt = Date.now();
          failed.push(r.messageId);
        }
      }
      return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
    };
    const poller = startSqsPoller({ queueUrl: local.queueUrl, invoke: standIn, client, log: quietLog([]), ...WEBHOOK_DELIVERY_POLLING });
    try {
      await new Promise((r) => setTimeout(r, 1000));
      // Short polls (waitTimeSeconds 0) would have made about 20 a second per loop.
      expect(receives).toBe(WEBHOOK_DELIVERY_POLLING.concurrency);
      const sentAt = Date.now();
      await sqs().send(new SendMessageCommand({ QueueUrl: local.queueUrl, MessageBody: 'long-poll-1' }));
      await waitFor('the retry', () => taken.length >= 2);
      expect(taken.map((t) => [t.body, t.count])).toEqual([['long-poll-1', '1'], ['long-poll-1', '2']]);
      expect(taken[0].at - sentAt).toBeLessThan(1000); // not at the end of a 20 s wait
      expect(taken[1].at - changedAt).toBeGreaterThanOrEqual(900); // its retry delay, then at once
      expect(taken[1].at - changedAt).toBeLessThan(3000);
    } finally {
      await poller.stop();
      client.destroy();
    }
  });

  it('delivers SQSEvents, deletes successes, retries failures by visibility and dead-letters after maxReceiveCount', async () => {
    const received: SQSRecord[] = [];
    const batches: number[] = [];
    let threw = false;
    // Stand-in for the delivery worker: "fail" records shorten their visibility to 1 s and are reported;
    // the first "throw" record makes the whole invocation throw (after shortening its visibility).
    const standIn = async (event: SQSEvent): Promise<SQSBatchResponse> => {
      batches.push(event.Records.length);
      received.push(...event.Records);
      const failed: string[] = [];
      for (const r of event.Records) {
        if (r.body.startsWith('fail') || (r.body.startsWith('throw') && !threw)) {
          await sqs().send(new ChangeMessageVisibilityCommand({ QueueUrl: webhookQueueUrl(), ReceiptHandle: r.receiptHandle, VisibilityTimeout: 1 }));
          failed.push(r.messageId);
        }
      }
      if (event.Records.some((r) => r.body.startsWith('throw')) && !threw) {
        threw = true;
        throw new Error('stand-in crash');
      }
      return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
    };
    const logs: string[] = [];
    const poller = startSqsPoller({ queueUrl: local.queueUrl, invoke: standIn, log: quietLog(logs) });
    try {
      const send = (MessageBody: string, MessageAttributes?: Record<string, { DataType: string; StringValue: string }>) =>
        sqs().send(new SendMessageCommand({ QueueUrl: local.queueUrl, MessageBody, MessageAttributes }));
      const t0 = Date.now();
      const ok = await send('ok-1', { subscriptionId: { DataType: 'String', StringValue: 'sub_1' } });
      await send('ok-2');
      const fail = await send('fail-1');
      const deliveries = (body: string) => received.filter((r) => r.body === body);

      // Shape of a delivered record, as Lambda's SQS event source writes it.
      await waitFor('ok-1', () => deliveries('ok-1').length === 1);
      const rec = deliveries('ok-1')[0];
      expect(rec).toMatchObject({
        messageId: ok.MessageId,
        body: 'ok-1',
        md5OfBody: createHash('md5').update('ok-1').digest('hex'),
        eventSource: 'aws:sqs',
        eventSourceARN: local.queueArn,
        awsRegion: local.queueArn.split(':')[3],
        attributes: { ApproximateReceiveCount: '1', SenderId: expect.any(String) },
        messageAttributes: { subscriptionId: { stringValue: 'sub_1', stringListValues: [], binaryListValues: [], dataType: 'String' } },
      });
      expect(rec.receiptHandle).toEqual(expect.any(String));
      expect(Number(rec.attributes.SentTimestamp)).toBeGreaterThanOrEqual(t0 - 1000);
      expect(Number(rec.attributes.ApproximateFirstReceiveTimestamp)).toBeGreaterThanOrEqual(Number(rec.attributes.SentTimestamp));

      // A reported failure comes back after the visibility the handler set, counted as the second receive.
      await waitFor('fail-1 redelivered', () => deliveries('fail-1').length >= 2);
      expect(deliveries('fail-1').map((r) => r.attributes.ApproximateReceiveCount).slice(0, 2)).toEqual(['1', '2']);
      expect(deliveries('fail-1')[1].messageId).toBe(fail.MessageId);

      // A handler that throws deletes nothing; the record comes back (its visibility was shortened).
      // Sent on its own so that no successful record shares the failed invocation.
      await waitFor('ok-2', () => deliveries('ok-2').length === 1);
      await send('throw-1');
      await waitFor('throw-1 redelivered', () => deliveries('throw-1').length >= 2);
      expect(deliveries('throw-1').map((r) => r.attributes.ApproximateReceiveCount)).toEqual(['1', '2']);
      expect(logs.some((l) => l.includes('handler threw'))).toBe(true);

      // After maxReceiveCount (3) failed receives the message is in the DLQ, not redelivered.
      const dlq: Message[] = [];
      await waitFor(
        'fail-1 in the DLQ',
        async () => {
          const r = await sqs().send(new ReceiveMessageCommand({ QueueUrl: local.dlqUrl, WaitTimeSeconds: 0, MaxNumberOfMessages: 10, AttributeNames: ['All'] }));
          dlq.push(...(r.Messages ?? []));
          return dlq.length > 0;
        },
        15_000,
      );
      expect(dlq.map((m) => [m.MessageId, m.Body])).toEqual([[fail.MessageId, 'fail-1']]);
      expect(deliveries('fail-1').map((r) => r.attributes.ApproximateReceiveCount)).toEqual(['1', '2', '3']);

      // Deleted messages never came back, and the source queue is empty.
      expect(deliveries('ok-1')).toHaveLength(1);
      expect(deliveries('ok-2')).toHaveLength(1);
      expect(deliveries('throw-1')).toHaveLength(2);
      // (local-aws-sqs's ApproximateNumberOfMessages also counts in-flight messages.)
      await waitFor('an empty source queue', async () => {
        const { Attributes } = await sqs().send(new GetQueueAttributesCommand({ QueueUrl: local.queueUrl, AttributeNames: ['ApproximateNumberOfMessages'] }));
        return Attributes?.ApproximateNumberOfMessages === '0';
      });
      expect(Math.max(...batches)).toBeLessThanOrEqual(10);
    } finally {
      await poller.stop();
    }
  });
});

describe('DynamoDB Streams poller over DynamoDB Local', () => {
  let endpoint: string;
  let tableName: string;
  let client: DynamoDBClient;
  let dir: string;

  beforeAll(async () => {
    ({ endpoint, tableName } = await useTestTable());
    client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    dir = mkdtempSync(path.join(tmpdir(), 'stream-poller-'));
  });
  afterAll(() => {
    client?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const put = (id: string, entity: string, extra: Record<string, any> = {}) =>
    client.send(
      new PutItemCommand({
        TableName: tableName,
        Item: { PK: { S: `ORG#o1#EVENT#${id}` }, SK: { S: 'EVENT' }, entity: { S: entity }, orgId: { S: 'o1' }, ...extra },
      }),
    );
  const pkOf = (r: DynamoDBRecord) => r.dynamodb?.Keys?.PK?.S?.split('#').pop();

  /** A stand-in fan-out handler: records events; `failOnce` ids are reported failed on first sight. */
  function standIn(failOnce = new Set<string>()) {
    const records: DynamoDBRecord[] = [];
    const events: DynamoDBStreamEvent[] = [];
    const invoke = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
      events.push(event);
      records.push(...event.Records);
      const failures = event.Records.filter((r) => failOnce.delete(pkOf(r)!)).map((r) => ({ itemIdentifier: r.dynamodb!.SequenceNumber! }));
      return { batchItemFailures: failures };
    };
    const count = (id: string) => records.filter((r) => pkOf(r) === id).length;
    return { invoke, records, events, count };
  }

  it('filters before it batches, as Lambda does: a batch holds up to batchSize records that passed, read over several pages', async () => {
    // A table of its own, its stream read from TRIM_HORIZON: 6 other items, then 6 outbox events.
    const own = await useTestTable();
    const ownClient = new DynamoDBClient({ endpoint: own.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const putOwn = (id: string, entity: string) =>
      ownClient.send(new PutItemCommand({ TableName: own.tableName, Item: { PK: { S: `ORG#o1#EVENT#${id}` }, SK: { S: 'EVENT' }, entity: { S: entity }, orgId: { S: 'o1' } } }));
    for (const id of ['x1', 'x2', 'x3', 'x4', 'x5', 'x6']) await putOwn(id, 'Transaction');
    for (const id of ['b1', 'b2', 'b3', 'b4', 'b5', 'b6']) await putOwn(id, 'OutboxEvent');
    const handler = standIn();
    const poller = startStreamPoller({ endpoint: own.endpoint, tableName: own.tableName, checkpointFile: path.join(dir, 'batching.json'), invoke: handler.invoke, batchSize: 4, intervalMs: 50, log: quietLog([]) });
    try {
      await waitFor('b6 delivered', () => handler.count('b6') === 1);
      // Read 4 records a page, a batch per page would have been [b1 b2] and [b3 b4 b5 b6] after a page of others alone.
      expect(handler.events.map((ev) => ev.Records.map(pkOf))).toEqual([
        ['b1', 'b2', 'b3', 'b4'],
        ['b5', 'b6'],
      ]);
    } finally {
      await poller.stop();
      ownClient.destroy();
    }
  });

  it('delivers outbox INSERTs as DynamoDBStreamEvent records, filters the rest, retries failures, and resumes from its checkpoint', async () => {
    const checkpointFile = path.join(dir, 'nested', 'stream-checkpoint.json');
    const logs: string[] = [];
    const streamArn = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table!.LatestStreamArn!;
    const t0 = Math.floor(Date.now() / 1000);

    // 1. First run: one outbox event, one other item, a MODIFY of the outbox item, then e2 (fails once) and e3.
    const first = standIn(new Set(['e2']));
    let poller = startStreamPoller({ endpoint, tableName, checkpointFile, invoke: first.invoke, intervalMs: 50, log: quietLog(logs) });
    await put('e1', 'OutboxEvent', { envelope: { M: { eventType: { S: 'deal.created' }, n: { N: '1' }, tags: { SS: ['a', 'b'] } } } });
    await put('x1', 'Transaction');
    await client.send(
      new UpdateItemCommand({ TableName: tableName, Key: { PK: { S: 'ORG#o1#EVENT#e1' }, SK: { S: 'EVENT' } }, UpdateExpression: 'SET touched = :t', ExpressionAttributeValues: { ':t': { BOOL: true } } }),
    );
    await put('e2', 'OutboxEvent');
    await put('e3', 'OutboxEvent');
    await waitFor('e3 delivered after the e2 retry', () => first.count('e3') >= 1 && first.count('e2') === 2);

    const e1 = first.records.find((r) => pkOf(r) === 'e1')!;
    expect(e1).toMatchObject({
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      eventSourceARN: streamArn,
      awsRegion: expect.any(String),
      eventID: expect.any(String),
      dynamodb: {
        Keys: { PK: { S: 'ORG#o1#EVENT#e1' }, SK: { S: 'EVENT' } },
        NewImage: {
          PK: { S: 'ORG#o1#EVENT#e1' },
          SK: { S: 'EVENT' },
          entity: { S: 'OutboxEvent' },
          orgId: { S: 'o1' },
          envelope: { M: { eventType: { S: 'deal.created' }, n: { N: '1' }, tags: { SS: ['a', 'b'] } } },
        },
        SequenceNumber: expect.stringMatching(/^\d+$/),
        SizeBytes: expect.any(Number),
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
    });
    expect(e1.dynamodb!.OldImage).toBeUndefined();
    // Epoch seconds (DynamoDB Local truncates it to the minute).
    expect(e1.dynamodb!.ApproximateCreationDateTime).toBeGreaterThanOrEqual(t0 - 120);
    expect(e1.dynamodb!.ApproximateCreationDateTime).toBeLessThanOrEqual(t0 + 120);

    // Only outbox INSERTs pass: neither the other entity nor the MODIFY reached the handler.
    expect(first.records.every((r) => r.eventName === 'INSERT' && r.dynamodb?.NewImage?.entity?.S === 'OutboxEvent')).toBe(true);
    expect(first.count('x1')).toBe(0);
    expect(first.count('e1')).toBe(1);
    // The failed record was retried first in the next batch; records before it were not redelivered.
    const withE2 = first.events.filter((ev) => ev.Records.some((r) => pkOf(r) === 'e2'));
    expect(withE2).toHaveLength(2);
    expect(pkOf(withE2[1].Records[0])).toBe('e2');
    expect(first.events.every((ev) => ev.Records.length <= 100)).toBe(true);

    // 2. Stop: the checkpoint holds the last sequence number of the only shard.
    await poller.stop();
    const saved = JSON.parse(readFileSync(checkpointFile, 'utf8')) as StreamCheckpoint;
    expect(saved.streamArn).toBe(streamArn);
    const [shardId, ...others] = Object.keys(saved.shards);
    expect(others).toEqual([]);
    const lastSeen = first.records.at(-1)!.dynamodb!.SequenceNumber!;
    expect(BigInt(saved.shards[shardId].sequenceNumber!)).toBeGreaterThanOrEqual(BigInt(lastSeen));

    // 3. Written while stopped: delivered after a restart with the same checkpoint; nothing earlier again.
    await put('e4', 'OutboxEvent');
    await put('x2', 'Transaction');
    await put('e5', 'OutboxEvent');
    const second = standIn();
    poller = startStreamPoller({ endpoint, tableName, checkpointFile, invoke: second.invoke, intervalMs: 50, log: quietLog(logs) });
    try {
      await waitFor('e5 after restart', () => second.count('e5') === 1);
      expect(second.records.map(pkOf)).toEqual(['e4', 'e5']);
    } finally {
      await poller.stop();
    }

    // 4. A checkpoint position that is no longer valid falls back to TRIM_HORIZON (duplicates, nothing lost).
    writeFileSync(checkpointFile, JSON.stringify({ streamArn, shards: { [shardId]: { sequenceNumber: '9'.repeat(21) } } }));
    const third = standIn();
    poller = startStreamPoller({ endpoint, tableName, checkpointFile, invoke: third.invoke, intervalMs: 50, log: quietLog(logs) });
    try {
      await waitFor('replay from TRIM_HORIZON', () => third.count('e5') === 1);
      expect(third.records.map(pkOf)).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
      expect(logs.some((l) => l.includes('TRIM_HORIZON'))).toBe(true);
    } finally {
      await poller.stop();
    }
  });
});

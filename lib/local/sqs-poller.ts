/**
 * The local stand-in for Lambda's SQS event source mapping (with `ReportBatchItemFailures`): long-polls a
 * queue, hands each batch to a handler as a real `SQSEvent`, and deletes the records the handler did not
 * report in `batchItemFailures`. Failed records stay on the queue: they come back after their visibility
 * timeout (the handler may shorten it with ChangeMessageVisibility) and the queue's RedrivePolicy moves
 * them to the dead-letter queue after `maxReceiveCount` receives — exactly as in AWS.
 */
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
  type Message,
  type MessageAttributeValue,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import { logger } from '#observability/powertools';
import { invokeLocally } from '#lib/local/invoke';

export interface SqsPollerOptions {
  /** Queue to poll; its origin is the endpoint unless `endpoint` or `client` is given. */
  queueUrl: string;
  /** The handler (e.g. `invokeWebhookDelivery`). May throw: then no record of the batch is deleted. */
  invoke: (event: SQSEvent) => Promise<SQSBatchResponse | void>;
  /** Messages per ReceiveMessage / per invocation, 1–10 (default 10). */
  batchSize?: number;
  /** Long-poll wait per ReceiveMessage, 0–20 s (default 1); `stop()` ends a waiting long poll at once. */
  waitTimeSeconds?: number;
  /** Pause after an empty short poll (`waitTimeSeconds` 0), in ms (default 50). */
  idleMs?: number;
  /** Parallel receive → invoke → delete loops (default 4), like Lambda's concurrent batches. */
  concurrency?: number;
  /** SQS endpoint (default: the origin of `queueUrl`). */
  endpoint?: string;
  /** A ready client (overrides `endpoint`). */
  client?: SQSClient;
  /** Error sink (default: an ERROR line of the Powertools logger, `source: sqs-poller`). */
  log?: (message: string, err?: unknown) => void;
}

export interface SqsPoller {
  /** Stops receiving; resolves once every in-flight batch has been invoked and its successes deleted. */
  stop(): Promise<void>;
}

/**
 * Starts `concurrency` loops of ReceiveMessage (all system and message attributes) → `invoke` →
 * DeleteMessageBatch of the records not listed in `batchItemFailures`. As with Lambda, a response that
 * names an unknown or empty `itemIdentifier`, or an `invoke` that throws, fails the whole batch (nothing
 * is deleted). Receive/delete errors are logged and retried after 1 s; the loops never throw. `stop()` aborts the
 * receives still waiting.
 * @throws RangeError when `batchSize` is outside 1–10, `waitTimeSeconds` outside 0–20 or `concurrency` < 1
 */
export function startSqsPoller(opts: SqsPollerOptions): SqsPoller {
  const { queueUrl, invoke, batchSize = 10, waitTimeSeconds = 1, concurrency = 4 } = opts;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10) throw new RangeError(`batchSize must be 1–10, got ${batchSize}`);
  if (!Number.isInteger(waitTimeSeconds) || waitTimeSeconds < 0 || waitTimeSeconds > 20)
    throw new RangeError(`waitTimeSeconds must be 0–20, got ${waitTimeSeconds}`);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  const log = opts.log ?? ((message: string, err?: unknown) => logger.error(message, { source: 'sqs-poller', ...(err !== undefined && { error: err }) }));
  const ownClient = !opts.client;
  const client =
    opts.client ??
    new SQSClient({
      endpoint: opts.endpoint ?? new URL(queueUrl).origin,
      region: process.env.AWS_REGION ?? 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });

  let stopping = false;
  const receives = new AbortController();
  const sleepers = new Set<() => void>();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => (clearTimeout(timer), sleepers.delete(done), resolve());
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });

  let arn: Promise<string> | undefined;
  const queueArn = () =>
    (arn ??= client
      .send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }))
      .then((r) => r.Attributes?.QueueArn ?? '')
      .catch((err) => {
        arn = undefined;
        throw err;
      }));

  async function handleBatch(messages: Message[]): Promise<void> {
    const eventSourceARN = await queueArn();
    const awsRegion = eventSourceARN.split(':')[3] ?? '';
    const records = messages.map((m) => toSqsRecord(m, eventSourceARN, awsRegion));
    let failed: Set<string>;
    try {
      const res = await invoke({ Records: records });
      const ids = (res?.batchItemFailures ?? []).map((f) => f.itemIdentifier);
      const known = new Set(records.map((r) => r.messageId));
      failed = ids.some((id) => !id || !known.has(id)) ? known : new Set(ids);
      if (failed === known && ids.length) log(`batchItemFailures names an unknown itemIdentifier: the whole batch of ${records.length} stays on the queue`);
    } catch (err) {
      log(`handler threw; the batch of ${records.length} stays on the queue until its visibility timeout`, err);
      return;
    }
    const done = records.filter((r) => !failed.has(r.messageId));
    if (!done.length) return;
    const res = await client.send(
      new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })) }),
    );
    for (const f of res.Failed ?? []) log(`DeleteMessageBatch failed for ${done[Number(f.Id)]?.messageId}: ${f.Code} ${f.Message ?? ''}`);
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      try {
        const res = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: batchSize,
            WaitTimeSeconds: waitTimeSeconds,
            AttributeNames: ['All'],
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: receives.signal },
        );
        // Received messages are in flight: process them even when stopping.
        if (res.Messages?.length) await handleBatch(res.Messages);
        else if (waitTimeSeconds === 0) await pause(opts.idleMs ?? 50);
      } catch (err) {
        if (stopping && (err as Error).name === 'AbortError') break; // the receive stop() ended
        log('receive/delete failed; retrying in 1 s', err);
        await pause(1000);
      }
    }
  }

  const loops = Array.from({ length: concurrency }, () => loop());
  let stopped: Promise<void> | undefined;
  return {
    stop: () =>
      (stopped ??= (async () => {
        stopping = true;
        for (const wake of [...sleepers]) wake();
        receives.abort();
        await Promise.all(loops);
        if (ownClient) client.destroy();
      })()),
  };
}

/** An SDK message attribute as Lambda writes it (camelCase, binaries base64). */
function toLambdaMessageAttribute(a: MessageAttributeValue): SQSMessageAttributes[string] {
  const b64 = (v: Uint8Array) => Buffer.from(v).toString('base64');
  return {
    ...(a.StringValue !== undefined && { stringValue: a.StringValue }),
    ...(a.BinaryValue !== undefined && { binaryValue: b64(a.BinaryValue) }),
    stringListValues: a.StringListValues ?? [],
    binaryListValues: (a.BinaryListValues ?? []).map(b64),
    dataType: a.DataType ?? 'String',
  };
}

/**
 * One received message in the shape Lambda's SQS event source gives a handler.
 * @param eventSourceARN the queue ARN; `awsRegion` its region
 */
export function toSqsRecord(m: Message, eventSourceARN: string, awsRegion: string): SQSRecord {
  const attrs: Record<string, string> = { ...(m.Attributes ?? {}) };
  return {
    messageId: m.MessageId!,
    receiptHandle: m.ReceiptHandle!,
    body: m.Body ?? '',
    attributes: {
      ...attrs,
      ApproximateReceiveCount: attrs.ApproximateReceiveCount ?? '1',
      SentTimestamp: attrs.SentTimestamp ?? '',
      SenderId: attrs.SenderId ?? '',
      ApproximateFirstReceiveTimestamp: attrs.ApproximateFirstReceiveTimestamp ?? '',
    },
    messageAttributes: Object.fromEntries(Object.entries(m.MessageAttributes ?? {}).map(([k, v]) => [k, toLambdaMessageAttribute(v)])),
    md5OfBody: m.MD5OfBody ?? '',
    ...(m.MD5OfMessageAttributes && { md5OfMessageAttributes: m.MD5OfMessageAttributes }),
    eventSource: 'aws:sqs',
    eventSourceARN,
    awsRegion,
  };
}

/**
 * How the local runtime polls the webhook delivery queue (lib/local/runtime.ts), as the deployed event source does
 * (lib/webhook-pipeline.ts: batches of 10, no batching window): long polls of 20 s, Lambda's own, so a message is
 * taken as soon as it is visible (sent, or back after its retry delay) and an idle queue costs one request per loop and
 * 20 s instead of a short poll about every 90 ms per loop (the engine's 40 ms hold, then the 50 ms pause). Four loops, not the deployed `maxConcurrency` of 10: here every
 * batch shares the process's one thread and the machine's cores with the API and DynamoDB Local.
 */
export const WEBHOOK_DELIVERY_POLLING = { batchSize: 10, waitTimeSeconds: 20, concurrency: 4 } as const satisfies Partial<SqsPollerOptions>;

let deliveryHandler: Promise<(event: SQSEvent) => Promise<SQSBatchResponse>> | undefined;

/**
 * Invokes `functions/webhook-delivery/handler.ts` (imported on first use, so the local runtime starts
 * even before that worker exists). Pass it as `invoke`.
 * @throws whatever the import or the handler throws
 */
export async function invokeWebhookDelivery(event: SQSEvent): Promise<SQSBatchResponse> {
  const specifier = '#functions/webhook-delivery/handler';
  deliveryHandler ??= import(specifier).then((m) => m.handler).catch((err) => ((deliveryHandler = undefined), Promise.reject(err)));
  return invokeLocally(await deliveryHandler, event, 'webhook-delivery');
}

/**
 * Runs local-aws-sqs (the SQS wire protocol, in process, no Java/Docker) on loopback with the two queues
 * the webhook pipeline uses: `webhook-deliveries` and its dead-letter queue `webhook-deliveries-dlq`
 * (`RedrivePolicy.maxReceiveCount = maxAttempts()`, `VisibilityTimeout = 60`), as the CDK stack declares them.
 *
 * Messages live in memory. With `journalFile`, every message sent to the delivery queue is also appended to a
 * journal (lib/local/sqs-journal.ts), so the next start can send again those still pending, as durable SQS
 * would have kept them.
 *
 * Two corrections to the engine, where local-aws-sqs 2.0.2 behaves unlike SQS:
 * - `keepReceiveCountOnVisibilityChange`: it counts a `ChangeMessageVisibility` as a receive, which would make
 *   every failed webhook attempt count twice towards `maxReceiveCount` and send messages to the DLQ after half
 *   the scheduled attempts;
 * - `receiveWhatIsVisible`: it holds a `ReceiveMessage` until it has `MaxNumberOfMessages` messages or its
 *   wait (plus 40 ms) is over, a batching window that SQS does not have and the delivery event source does not
 *   set (lib/webhook-pipeline.ts), which would add up to 40 ms to every delivery, and a long poll's whole wait
 *   to a message that arrives (or whose visibility timeout ends) during it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, type Server } from 'node:http';
import { createRequestHandler } from 'local-aws-sqs';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { freePort } from '#lib/local/dynamodb-local';
import { maxAttempts } from '#events/retry-schedule';
import { journalSends, type JournaledQueue } from '#lib/local/sqs-journal';

export const WEBHOOK_QUEUE_NAME = 'webhook-deliveries';
export const WEBHOOK_DLQ_NAME = 'webhook-deliveries-dlq';
/** Seconds a received message stays invisible unless the consumer changes it (shorter than the deployed queue's 360 s; the delivery handler sets each retry's visibility itself). */
export const WEBHOOK_QUEUE_VISIBILITY_SECONDS = 60;

export interface LocalSqs {
  /** `http://127.0.0.1:<port>`: the SQS endpoint (`SQS_ENDPOINT`). */
  endpoint: string;
  /** URL of `webhook-deliveries` (`WEBHOOK_QUEUE_URL`). */
  queueUrl: string;
  /** URL of `webhook-deliveries-dlq`. */
  dlqUrl: string;
  queueArn: string;
  dlqArn: string;
  /** The queue's `maxReceiveCount` (= `maxAttempts()` when started). */
  maxReceiveCount: number;
  /**
   * Sets a message of `webhook-deliveries` as received `count` times (a re-enqueued delivery resumes its attempt
   * numbering, as the message SQS kept would have). @returns false when the queue holds no such message
   */
  setReceiveCount(messageId: string, count: number): boolean;
  /** Closes the HTTP server (open connections included). Messages are discarded. */
  stop(): Promise<void>;
}

/**
 * Starts local-aws-sqs on 127.0.0.1 and creates the webhook queues through the SQS API.
 * `maxReceiveCount` is read from `WEBHOOK_RETRY_SCHEDULE` now (set it before calling).
 * @param opts.port TCP port; omitted = a free one
 * @param opts.region region written into queue ARNs (default `AWS_REGION`, else `us-east-1`)
 * @param opts.journalFile append each message sent to `webhook-deliveries` to this file (default: no journal)
 * @returns endpoint, queue/DLQ URLs and ARNs, and `stop()`
 * @throws Error when the port is taken (EADDRINUSE) or `WEBHOOK_RETRY_SCHEDULE` is invalid
 */
export async function startLocalSqs(opts: { port?: number; region?: string; journalFile?: string } = {}): Promise<LocalSqs> {
  const port = opts.port ?? (await freePort());
  const region = opts.region ?? process.env.AWS_REGION ?? 'us-east-1';
  const maxReceiveCount = maxAttempts();
  const { service, requestHandler } = createRequestHandler({
    port,
    hostname: '127.0.0.1',
    region,
    emulateQueueCreationLifecycle: false,
  });
  // Each request's state, so that a long poll whose client went away (a poller stopped) takes no message.
  const requests = new AsyncLocalStorage<RequestState>();
  const server: Server = createServer((req, res) => {
    const state: RequestState = { gone: false };
    res.once('close', () => (state.gone = !res.writableFinished));
    requests.run(state, () => requestHandler(req, res));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const longPolls = new Set<() => void>();
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const end of [...longPolls]) end();
      server.close(() => resolve());
      server.closeAllConnections();
    });

  const endpoint = `http://127.0.0.1:${port}`;
  const client = new SQSClient({ endpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    const arnOf = async (QueueUrl: string) =>
      (await client.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }))).Attributes!.QueueArn!;
    const dlqUrl = (await client.send(new CreateQueueCommand({ QueueName: WEBHOOK_DLQ_NAME }))).QueueUrl!;
    const dlqArn = await arnOf(dlqUrl);
    const queueUrl = (
      await client.send(
        new CreateQueueCommand({
          QueueName: WEBHOOK_QUEUE_NAME,
          Attributes: {
            VisibilityTimeout: String(WEBHOOK_QUEUE_VISIBILITY_SECONDS),
            RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount }),
          },
        }),
      )
    ).QueueUrl!;
    const queueArn = await arnOf(queueUrl);
    const attributesOf = new Map(service.Queues.map((q) => [q.QueueName, keepReceiveCountOnVisibilityChange(q as unknown as EngineQueue)]));
    for (const q of service.Queues) receiveWhatIsVisible(q as unknown as EngineQueue, attributesOf.get(q.QueueName)!, { longPolls, request: () => requests.getStore() });
    const main = service.Queues.find((q) => q.QueueName === WEBHOOK_QUEUE_NAME);
    if (opts.journalFile && main) journalSends(main as unknown as JournaledQueue, opts.journalFile);
    const setReceiveCount = (messageId: string, count: number): boolean => {
      const attrs = attributesOf.get(WEBHOOK_QUEUE_NAME)?.(messageId);
      if (attrs) attrs.ApproximateReceiveCount = String(count);
      return Boolean(attrs);
    };
    return { endpoint, queueUrl, dlqUrl, queueArn, dlqArn, maxReceiveCount, setReceiveCount, stop };
  } catch (err) {
    await stop();
    throw err;
  } finally {
    client.destroy();
  }
}

/** The parts of local-aws-sqs's (untyped-private) queue object the corrections touch. */
interface EngineEntry {
  record: { MessageId: string; attributes: Record<string, string> };
  /** Receivable now (false while in flight, and once received and deleted or moved to the DLQ). */
  visible?: boolean;
  /** Not yet receivable (`DelaySeconds`). */
  delayed?: boolean;
}
type ReceiveArgs = { VisibilityTimeout?: unknown; WaitTimeSeconds?: unknown; MaxNumberOfMessages?: unknown };
export interface EngineQueue {
  newRecord: (msg: Record<string, unknown>, delay?: number) => EngineEntry;
  changeVisibility: (receiptHandle: string, visibilityTimeout: string) => boolean;
  receive: (args: ReceiveArgs) => Promise<unknown[]>;
  /** Removes a message (DeleteMessage, and the move of a message to the DLQ). */
  delete: (receiptHandle: string) => boolean;
}
/** What `keepReceiveCountOnVisibilityChange` returns: a message's attributes by id, and the messages it indexed. */
export type EngineIndex = ((messageId: string) => Record<string, string> | undefined) & { entries(): Iterable<EngineEntry> };

/** The MessageId inside a local-aws-sqs receipt handle (base64 of a UUID followed by JSON), or undefined. */
function messageIdOf(receiptHandle: string): string | undefined {
  try {
    const text = Buffer.from(receiptHandle, 'base64').toString('utf8');
    return JSON.parse(text.slice(text.indexOf('{'))).MessageId;
  } catch {
    return undefined;
  }
}

/**
 * local-aws-sqs 2.0.2 runs the same routine for ReceiveMessage and ChangeMessageVisibility, so a visibility
 * change increments `ApproximateReceiveCount` (and the redrive check uses that count). Real SQS counts
 * receives only. This wraps one queue instance: it indexes messages as they are created (and forgets them once
 * deleted, so the index holds about what the queue holds) and restores the count (and first-receive timestamp) right
 * after each visibility change.
 */
export function keepReceiveCountOnVisibilityChange(queue: EngineQueue): EngineIndex {
  const entries = new Map<string, WeakRef<EngineEntry>>();
  const newRecord = queue.newRecord;
  queue.newRecord = (msg, delay) => {
    const entry = newRecord(msg, delay);
    if (entries.size >= 1024) for (const [id, ref] of entries) if (!ref.deref()) entries.delete(id);
    entries.set(entry.record.MessageId, new WeakRef(entry));
    return entry;
  };
  const remove = queue.delete.bind(queue);
  queue.delete = (receiptHandle) => {
    const removed = remove(receiptHandle);
    const id = messageIdOf(receiptHandle);
    if (id) entries.delete(id);
    return removed;
  };
  const changeVisibility = queue.changeVisibility.bind(queue);
  queue.changeVisibility = (receiptHandle, visibilityTimeout) => {
    const id = messageIdOf(receiptHandle);
    const attrs = id ? entries.get(id)?.deref()?.record.attributes : undefined;
    const before = attrs && { count: attrs.ApproximateReceiveCount, first: attrs.ApproximateFirstReceiveTimestamp };
    const changed = changeVisibility(receiptHandle, visibilityTimeout);
    if (changed && attrs && before) {
      attrs.ApproximateReceiveCount = before.count;
      attrs.ApproximateFirstReceiveTimestamp = before.first;
    }
    return changed;
  };
  const attributes = (messageId: string) => entries.get(messageId)?.deref()?.record.attributes;
  return Object.assign(attributes, {
    *entries() {
      for (const ref of entries.values()) {
        const entry = ref.deref();
        if (entry) yield entry;
      }
    },
  });
}

/** A ReceiveMessage request's state: `gone` once its client closed the connection before the answer. */
export interface RequestState {
  gone: boolean;
}

/** How often a waiting long poll looks for a visible message, in ms (the engine's own receive looks every 10 ms). */
const LONG_POLL_CHECK_MS = 10;

/**
 * Makes one queue instance answer `ReceiveMessage` as SQS does once messages are there: the engine is asked for no
 * more than the messages visible now, so it returns them at its first check (10 ms) instead of waiting to fill
 * `MaxNumberOfMessages`. A long poll (`WaitTimeSeconds` > 0) that finds none waits here for the first one to be
 * visible (sent, or back after its visibility timeout), checking every `LONG_POLL_CHECK_MS`, and then returns it at
 * once, as SQS does; it returns no message when its wait ends first. A short poll with none visible waits as before
 * (40 ms). Visible messages are counted among those `index` saw created (deleted ones are never visible again).
 * @param opts.longPolls the waiting long polls' early ends (called when the server stops: they answer with no message)
 * @param opts.request the state of the request being answered; a long poll whose client is gone ends with no message
 */
export function receiveWhatIsVisible(
  queue: EngineQueue,
  index: EngineIndex,
  opts: { longPolls?: Set<() => void>; request?: () => RequestState | undefined } = {},
): void {
  const longPolls = opts.longPolls ?? new Set<() => void>();
  const receive = queue.receive.bind(queue);
  /** Visible messages, counted up to `wanted`. */
  const visibleNow = (wanted: number) => {
    let n = 0;
    for (const e of index.entries()) if (e.visible && !e.delayed && ++n >= wanted) break;
    return n;
  };
  const firstVisible = (wanted: number, waitMs: number, request: RequestState | undefined) =>
    new Promise<number>((resolve) => {
      const deadline = Date.now() + waitMs;
      const done = (n: number) => (clearInterval(timer), longPolls.delete(end), resolve(n));
      const end = () => done(0);
      const timer = setInterval(() => {
        if (request?.gone) return done(0);
        const n = visibleNow(wanted);
        if (n || Date.now() >= deadline) done(n);
      }, LONG_POLL_CHECK_MS);
      timer.unref();
      longPolls.add(end);
    });
  queue.receive = async (args) => {
    const wanted = Number(args.MaxNumberOfMessages ?? 1);
    const waitMs = Number(args.WaitTimeSeconds ?? 0) * 1000;
    let visible = visibleNow(wanted);
    if (!visible && waitMs > 0) {
      visible = await firstVisible(wanted, waitMs, opts.request?.());
      if (!visible) return [];
    }
    // Collected without a wait of the engine's own: another receive may have taken some of them meanwhile.
    return receive(visible > 0 ? { ...args, MaxNumberOfMessages: visible, WaitTimeSeconds: 0 } : args);
  };
}

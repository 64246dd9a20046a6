/**
 * The local stand-in for the send worker's stream event source mapping (lib/messaging/send-worker.ts): the filter
 * the deployed mapping applies (INSERTs of `message.queued` and `service_email.queued` outbox items) and the invocation of the real handler,
 * functions/message-send/handler.ts. lib/local/runtime.ts runs it as a second stream poller with its own checkpoint.
 */
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { invokeLocally } from '#lib/local/invoke';
import { SEND_WORKER_EVENTS } from '#events/catalog';

/** The deployed mapping's filter: `eventName = INSERT`, `entity = OutboxEvent`, `envelope.eventType` one of `SEND_WORKER_EVENTS`. */
export function isQueuedMessageInsert(record: DynamoDBRecord): boolean {
  const image = record.dynamodb?.NewImage;
  return record.eventName === 'INSERT' && image?.entity?.S === 'OutboxEvent' && (SEND_WORKER_EVENTS as readonly string[]).includes(image.envelope?.M?.eventType?.S ?? '');
}

let sendHandler: Promise<(event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse>> | undefined;

/**
 * Loads the handler and the local transports it sends through, once (the runtime starts it at start, as Lambda's
 * init precedes the first event), so the first send is not held up by module loading.
 */
export function loadMessageSend(): Promise<(event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse>> {
  const specifiers = ['#functions/message-send/handler', '#ports/mail/local', '#ports/sms/local'];
  sendHandler ??= Promise.all(specifiers.map((s) => import(s)))
    .then(([m]) => m.handler)
    .catch((err) => ((sendHandler = undefined), Promise.reject(err)));
  return sendHandler;
}

/** Invokes the send worker's handler with a stream batch, as Lambda would. */
export async function invokeMessageSend(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  return invokeLocally(await loadMessageSend(), event, 'message-send');
}

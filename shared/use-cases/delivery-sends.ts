/**
 * The delivery queue's side of one fan-out invocation (shared/use-cases/fan-out.ts): the delivery messages of all
 * the events of a stream batch share `SendMessageBatch` calls of up to 10 entries and 256 KiB of bodies (SQS's batch
 * quotas), instead of one call per event. A full chunk is sent at once; the rest once no event of the invocation is
 * still claiming (checked on the next turn of the event loop, so events that started together are sent together). An entry SQS refuses (`Failed`) fails only
 * its own event; a call that fails fails every event with an entry in it (the stream retries those records, and the
 * retry re-sends only deliveries still pending: shared/db/webhook-deliveries.ts `claimDelivery`).
 */
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import type { DeliveryMessage } from '#db/webhook-deliveries';
import { sqs, webhookQueueUrl } from '#ports/sqs';

/** SendMessageBatch's largest batch, in entries (SQS quota). */
export const SQS_BATCH_ENTRIES = 10;
/** The most message-body bytes one SendMessageBatch carries: 256 KiB, SQS's batch payload quota before 2025 (queues created since may take 1 MiB). */
export const SQS_BATCH_BYTES = 262_144;

export interface DeliverySends {
  /**
   * Runs `collect` (one event's claims) and sends the messages it returns together with other events' messages.
   * @returns how many messages were sent
   * @throws what `collect` throws, or an Error when SQS failed or refused any of them
   */
  send(collect: () => Promise<DeliveryMessage[]>): Promise<number>;
}

interface Waiting {
  body: string;
  bytes: number;
  done: (err?: unknown) => void;
}

/**
 * The sends of one invocation.
 * @param onSent called after each `SendMessageBatch` with how many of its messages SQS accepted
 */
export function deliverySends(onSent: (accepted: number) => void): DeliverySends {
  const waiting: Waiting[] = [];
  let collecting = 0;
  /** Sends every full chunk (10 entries, or no room for the next body), and with `all` the rest too. */
  const flush = (all: boolean) => {
    while (waiting.length) {
      let n = 0;
      let bytes = 0;
      while (n < waiting.length && n < SQS_BATCH_ENTRIES && (n === 0 || bytes + waiting[n].bytes <= SQS_BATCH_BYTES)) bytes += waiting[n++].bytes;
      if (n === waiting.length && n < SQS_BATCH_ENTRIES && !all) return;
      sendChunk(waiting.splice(0, n), onSent);
    }
  };
  return {
    async send(collect) {
      collecting++;
      let sent: Promise<void>[] = [];
      try {
        sent = (await collect()).map((message) => {
          const body = JSON.stringify(message);
          return new Promise<void>((resolve, reject) => waiting.push({ body, bytes: Buffer.byteLength(body, 'utf8'), done: (err) => (err ? reject(err) : resolve()) }));
        });
      } finally {
        collecting--;
        flush(false);
        if (!collecting) setImmediate(() => collecting || flush(true));
      }
      await Promise.all(sent);
      return sent.length;
    },
  };
}

/** One `SendMessageBatch`; settles each entry's `done` (never throws). */
function sendChunk(chunk: Waiting[], onSent: (accepted: number) => void): void {
  Promise.resolve()
    .then(() => sqs().send(new SendMessageBatchCommand({ QueueUrl: webhookQueueUrl(), Entries: chunk.map((w, i) => ({ Id: String(i), MessageBody: w.body })) })))
    .then(
      (out) => {
        const refused = new Map((out.Failed ?? []).map((f) => [f.Id, f]));
        onSent(chunk.length - refused.size);
        chunk.forEach((w, i) => {
          const f = refused.get(String(i));
          w.done(f && new Error(`SQS refused a delivery message: ${f.Code}${f.Message ? ` (${f.Message})` : ''}`));
        });
      },
      (err: unknown) => chunk.forEach((w) => w.done(err ?? new Error('SendMessageBatch failed'))),
    );
}

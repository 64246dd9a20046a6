/**
 * Local restart recovery: local-aws-sqs keeps messages in memory, so on start the runtime sends again every
 * message of the previous run's send journal (lib/local/sqs-journal.ts) whose delivery is still pending in the
 * table (the delivery item is read by key). A retry already scheduled keeps its time (SQS `DelaySeconds`, at
 * most 15 min), and the message is marked received as often as attempts were made, so the worker's attempt number
 * (SQS's receive count) continues where it stopped; both come from the delivery's latest attempt item, since a
 * pending delivery's record keeps no count. In AWS, SQS is durable and none of this runs.
 */
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { deliveryIdOf, getDeliveryState, latestAttempt, type DeliveryMessage } from '#db/webhook-deliveries';
import { sqs, webhookQueueUrl } from '#ports/sqs';
import { clearJournal, readJournal } from '#lib/local/sqs-journal';

/**
 * @param journalFile the delivery queue's send journal
 * @param setReceiveCount marks a re-sent message as received that many times (lib/local/sqs-local.ts)
 * @param now epoch milliseconds
 * @returns how many deliveries were re-enqueued
 */
export async function requeuePendingDeliveries(journalFile: string, setReceiveCount: (messageId: string, count: number) => boolean, now = Date.now()): Promise<number> {
  const latest = new Map<string, DeliveryMessage>();
  for (const body of readJournal(journalFile)) {
    const m = parseMessage(body);
    if (m) latest.set(`${m.subscriptionId}|${deliveryIdOf(m)}`, m);
  }
  const pending: { m: DeliveryMessage; delay: number; attempts: number }[] = [];
  for (const m of latest.values()) {
    const state = await getDeliveryState(m.orgId, m.subscriptionId, deliveryIdOf(m));
    if (state?.status !== 'pending') continue;
    const last = await latestAttempt(m.orgId, m.subscriptionId, deliveryIdOf(m), state.createdAt);
    pending.push({ m, delay: delayUntil(last?.nextRetryAt ?? null, now), attempts: last?.attempt ?? 0 });
  }
  // Sending journals the messages again, so the journal ends up holding exactly what is still pending.
  clearJournal(journalFile);
  for (let i = 0; i < pending.length; i += 10) {
    const chunk = pending.slice(i, i + 10);
    const sent = await sqs().send(new SendMessageBatchCommand({ QueueUrl: webhookQueueUrl(), Entries: chunk.map(({ m, delay }, j) => ({ Id: String(j), MessageBody: JSON.stringify(m), DelaySeconds: delay })) }));
    for (const ok of sent.Successful ?? []) setReceiveCount(ok.MessageId!, chunk[Number(ok.Id)]!.attempts);
  }
  return pending.length;
}

function parseMessage(body: string): DeliveryMessage | undefined {
  try {
    const m = JSON.parse(body) as DeliveryMessage;
    return typeof m.orgId === 'string' && typeof m.subscriptionId === 'string' && typeof m.eventId === 'string' && typeof m.payload === 'string' ? m : undefined;
  } catch {
    return undefined;
  }
}

/** Seconds until `nextRetryAt` (0 when due or unknown), capped at SQS's 900. */
function delayUntil(nextRetryAt: string | null, now: number): number {
  if (!nextRetryAt) return 0;
  return Math.min(900, Math.max(0, Math.ceil((Date.parse(nextRetryAt) - now) / 1000)));
}

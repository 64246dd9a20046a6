/**
 * Two-way SMS (the worker is functions/inbound-sms/handler.ts): AWS End User Messaging publishes each inbound text to
 * an SNS topic as JSON (`originationNumber`, `destinationNumber`, `messageBody`, `inboundMessageId`, …); each becomes
 * one `receiveSms` (keywords, opt-out, threading: shared/use-cases/messaging/receive-sms.ts). Locally `npm run sms --
 * reply` builds the same event (lib/local/sms-events.ts).
 *
 * Metrics (Count, every invocation): `InboundTexts` received, `SmsOptOuts` for STOP-type keywords.
 */
import type { SNSEventRecord } from 'aws-lambda';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { receiveSms, type InboundSms, type InboundSmsOutcome } from '#use-cases/messaging/receive-sms';
import { logger, metricSet } from '#observability/powertools';

/**
 * The inbound text notification of AWS End User Messaging SMS (two-way messaging), the SNS message's JSON
 * (AWS End User Messaging SMS User Guide, "Two-way SMS messaging": message format).
 */
export interface InboundSmsNotification {
  /** The sender, E.164. */
  originationNumber: string;
  /** The number of this service it was sent to, E.164. */
  destinationNumber: string;
  /** The keyword the text matched (e.g. `STOP`), when it matched one. */
  messageKeyword?: string;
  messageBody: string;
  inboundMessageId: string;
  /** The id of the last message sent to the sender, when known. */
  previousPublishedMessageId?: string;
}

/**
 * The text an SNS record carries, or undefined when it is not an inbound text notification (no sender or no id:
 * nothing to thread or deduplicate).
 * @throws SyntaxError when the message is not JSON
 */
export function inboundSmsOf(record: SNSEventRecord): InboundSms | undefined {
  const n = JSON.parse(record.Sns.Message) as Partial<InboundSmsNotification>;
  if (typeof n.originationNumber !== 'string' || !n.originationNumber || typeof n.inboundMessageId !== 'string' || !n.inboundMessageId) return undefined;
  return { from: n.originationNumber, to: n.destinationNumber || null, body: n.messageBody ?? '', providerMessageId: n.inboundMessageId };
}

/** The inbound-SMS worker's metrics (Count; dimension `service` only). */
export const INBOUND_SMS_METRICS = metricSet(['InboundTexts', 'SmsOptOuts']);

/**
 * Receives the texts of a batch of SNS records, in order (a record that is not an inbound text is logged and
 * skipped), and counts them.
 * @param now the clock, read once per text
 * @throws SyntaxError when a message is not JSON, or what receiving threw (the texts before it stay received: a
 *   retry finds them `duplicate`)
 */
export async function receiveTexts(records: readonly SNSEventRecord[], now: () => Date): Promise<InboundSmsOutcome[]> {
  const outcomes: InboundSmsOutcome[] = [];
  for (const record of records) {
    const sms = inboundSmsOf(record);
    if (!sms) {
      logger.warn('not an inbound text notification; skipped', { snsMessageId: record.Sns.MessageId });
      continue;
    }
    const outcome = await receiveSms(sms, now());
    logger.info('inbound text', { outcome, inboundMessageId: sms.providerMessageId });
    outcomes.push(outcome);
  }
  INBOUND_SMS_METRICS.add('InboundTexts', MetricUnit.Count, outcomes.length);
  INBOUND_SMS_METRICS.add('SmsOptOuts', MetricUnit.Count, outcomes.filter((o) => o === 'opted_out').length);
  return outcomes;
}

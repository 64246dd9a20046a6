/**
 * Two-way SMS: AWS End User Messaging publishes each inbound text to an SNS topic as JSON
 * (`originationNumber`, `destinationNumber`, `messageBody`, `inboundMessageId`, …); each SNS record becomes one
 * `receiveSms` (keywords, opt-out, threading: shared/use-cases/messaging/receive-sms.ts). Locally `npm run sms --
 * reply` builds the same event.
 */
import type { SNSEvent } from 'aws-lambda';
import { clockNow } from '#ports/clock';
import { receiveSms, type InboundSmsOutcome } from '#use-cases/messaging/receive-sms';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger, metrics, observedHandler } from '#observability/powertools';

/** The inbound text notification of AWS End User Messaging SMS (two-way messaging). */
export interface InboundSmsNotification {
  originationNumber: string;
  destinationNumber: string;
  messageBody: string;
  inboundMessageId: string;
}

/** Metrics (Count): `InboundTexts`, and `SmsOptOuts` for STOP-type keywords. */
export const handler = observedHandler(async (event: SNSEvent): Promise<InboundSmsOutcome[]> => {
  const outcomes: InboundSmsOutcome[] = [];
  for (const record of event.Records) {
    const n = JSON.parse(record.Sns.Message) as InboundSmsNotification;
    const outcome = await receiveSms({ from: n.originationNumber, to: n.destinationNumber ?? null, body: n.messageBody ?? '', providerMessageId: n.inboundMessageId }, clockNow());
    logger.info('inbound text', { outcome, inboundMessageId: n.inboundMessageId });
    outcomes.push(outcome);
  }
  metrics.addMetric('InboundTexts', MetricUnit.Count, outcomes.length);
  metrics.addMetric('SmsOptOuts', MetricUnit.Count, outcomes.filter((o) => o === 'opted_out').length);
  return outcomes;
});

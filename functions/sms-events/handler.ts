/**
 * SMS delivery receipt worker (End User Messaging SMS configuration-set events → SNS → here): each SNS message is
 * one SMS event's JSON, recorded on its text by shared/use-cases/messaging/sms-events.ts (mapping and metrics).
 */
import type { SNSEvent } from 'aws-lambda';
import { clockNow } from '#ports/clock';
import { recordSmsEvents, type SmsEvent } from '#use-cases/messaging/sms-events';
import { observedHandler } from '#observability/powertools';

/**
 * Lambda handler (SNS subscription).
 * @returns how many receipts were recorded on a known text
 * @throws SyntaxError when a message is not JSON, or what recording threw (SNS → Lambda retries the event)
 */
export const handler = observedHandler(async (event: SNSEvent): Promise<number> =>
  recordSmsEvents(event.Records.map((r) => JSON.parse(r.Sns.Message) as SmsEvent), clockNow),
);

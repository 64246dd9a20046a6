/**
 * SES event worker (configuration-set events → SNS → here): each SNS message is SES's event JSON, recorded by
 * shared/use-cases/messaging/ses-events.ts (which holds the mapping and the metrics).
 */
import type { SNSEvent } from 'aws-lambda';
import { clockNow } from '#ports/clock';
import { recordSesEvents, type SesEvent } from '#use-cases/messaging/ses-events';
import { observedHandler } from '#observability/powertools';

/**
 * Lambda handler (SNS subscription).
 * @returns how many events were recorded on a known message
 * @throws SyntaxError when a message is not JSON, or what recording threw (SNS → Lambda retries the event)
 */
export const handler = observedHandler(async (event: SNSEvent): Promise<number> =>
  recordSesEvents(event.Records.map((r) => JSON.parse(r.Sns.Message) as SesEvent), clockNow),
);

/**
 * Inbound-SMS worker (AWS End User Messaging two-way SMS → SNS → here; locally `npm run sms -- reply`): the batch's
 * records go to shared/use-cases/messaging/inbound-texts.ts, which parses, threads and counts each text.
 */
import type { SNSEvent } from 'aws-lambda';
import { clockNow } from '#ports/clock';
import { receiveTexts } from '#use-cases/messaging/inbound-texts';
import type { InboundSmsOutcome } from '#use-cases/messaging/receive-sms';
import { observedHandler } from '#observability/powertools';

/** Lambda handler (SNS subscription). @returns each text's outcome, in record order */
export const handler = observedHandler(async (event: SNSEvent): Promise<InboundSmsOutcome[]> => receiveTexts(event.Records, clockNow));

/**
 * Inbound-email worker (S3 `ObjectCreated` under `inbound/` of the inbound-mail bucket, or the local SMTP server's
 * stand-in): the batch's keys go to shared/use-cases/messaging/stored-emails.ts, which threads each email into its
 * deal and counts the outcomes. A record that throws is retried by S3 → Lambda's asynchronous retries.
 */
import type { S3Event } from 'aws-lambda';
import { clockNow } from '#ports/clock';
import { INBOUND_PREFIX } from '#ports/object-prefixes';
import { receiveStoredEmails } from '#use-cases/messaging/stored-emails';
import type { InboundEmailOutcome } from '#use-cases/messaging/receive-email';
import { observedHandler } from '#observability/powertools';

/** The object keys of a notification (S3 URL-encodes them, spaces as `+`), `inbound/` ones only. */
export const inboundKeysOf = (event: S3Event): string[] =>
  event.Records.map((r) => decodeURIComponent(r.s3.object.key.replace(/\+/g, ' '))).filter((key) => key.startsWith(INBOUND_PREFIX));

/** Lambda handler. @returns each email's outcome, in record order */
export const handler = observedHandler(async (event: S3Event): Promise<InboundEmailOutcome[]> => receiveStoredEmails(inboundKeysOf(event), clockNow));

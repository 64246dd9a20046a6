/**
 * Which SES v2 `SendEmail` failures are permanent. A refused message or sender, and a paused or suspended account,
 * become `MailRejected` (the caller does not retry); throttling and other errors are rethrown as they are.
 */
import { AccountSuspendedException, MailFromDomainNotVerifiedException, MessageRejected, SendingPausedException } from '@aws-sdk/client-sesv2';
import { MailRejected } from '#ports/mailer';

/** @throws MailRejected for a permanent refusal; otherwise `err` itself */
export function rethrowSesFailure(err: unknown): never {
  if (err instanceof MessageRejected || err instanceof MailFromDomainNotVerifiedException) throw new MailRejected(`SES refused the message: ${err.message}`);
  if (err instanceof AccountSuspendedException || err instanceof SendingPausedException) throw new MailRejected('Sending email is paused for this account; contact the operator.');
  throw err;
}

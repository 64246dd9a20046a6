/**
 * The mail port: sends one email through the right transport, chosen from the environment (only adapters read
 * it). In AWS (`MAIL_TRANSPORT=aws`, the default) a member's `smtp` account goes through their own SMTP server
 * (nodemailer, password from Secrets Manager) and everything else through Amazon SES v2 with the configuration set
 * `SES_CONFIGURATION_SET` (bounce and complaint events); locally (`MAIL_TRANSPORT=local`) every email goes to the
 * local runtime's SMTP server (`LOCAL_SMTP_URL`), whatever the account, so nothing leaves the machine. The transport
 * for the environment is `mailer()` in shared/ports/mail/transport.ts; this module holds only the contract, so
 * importing its types and `MailRejected` reaches no transport.
 */
import type { MailAccount } from '#db/mail-accounts';

/** An email ready to send. Addresses are bare (`name@example.com`); the sender has a display name. */
export interface OutboundEmail {
  from: { address: string; name: string | null };
  /** Where replies go (the deal's reply address). */
  replyTo: string | null;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  text: string;
  html: string | null;
  /** RFC 5322 Message-ID this service assigns (`<…@…>`), so replies can be threaded. */
  messageId: string;
  /** RFC 5322 In-Reply-To / References of a reply. */
  inReplyTo: string | null;
  references: string[];
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

/** What the transport reports for an accepted email. */
export interface SentEmail {
  /** `ses`, `smtp` or `local`. */
  provider: string;
  /** The provider's id of the message (SES MessageId, the SMTP server's queue reply, …). */
  providerMessageId: string;
}

/** Sends email. */
export interface Mailer {
  /**
   * @param via the member's account to send through, or null for the service's own sender
   * @throws MailRejected when the transport refuses the message for good (bad address, refused sender)
   * @throws Error for transient failures (the caller may retry)
   */
  send(email: OutboundEmail, via: MailAccount | null): Promise<SentEmail>;
}

/** The transport refused the message permanently; `reason` is safe to show to the sender. */
export class MailRejected extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'MailRejected';
  }
}

/** The service's identities, re-exported for the transports' callers (shared/ports/mail-identity.ts holds them). */
export { inboundMailDomain, serviceSender } from '#ports/mail-identity';

/**
 * The plain mail port: the service's own plain-text email to one recipient (sign-in codes, invitations, disclosure
 * links, workspace notices). In AWS through Amazon SES v2 `Simple` content (shared/ports/mail/ses-plain.ts), so the
 * functions that send only these carry no MIME composer; locally through the local runtime's SMTP server, like every
 * other email. Kept apart from the mail port (shared/ports/mailer.ts) so a bundle holding only this one does not
 * reach nodemailer.
 */
import { randomUUID } from 'node:crypto';
import type { SentEmail } from '#ports/mailer';
import { config } from '#ports/config';
import { localMailer } from '#ports/mail/local';
import { sesPlainMailer } from '#ports/mail/ses-plain';

/** A plain-text email in the service's own name, to one recipient. */
export interface PlainEmail {
  from: { address: string; name: string };
  to: string;
  subject: string;
  text: string;
}

/** Sends the service's own plain-text email. */
export interface PlainMailer {
  /** @throws MailRejected when refused for good; Error for transient failures */
  send(email: PlainEmail): Promise<SentEmail>;
}

let instance: PlainMailer | undefined;

/** The local runtime's SMTP server, as a plain mailer (the local mail transport composes the message). */
function localPlainMailer(): PlainMailer {
  const smtp = localMailer();
  return {
    send: (e: PlainEmail) =>
      smtp.send({ from: e.from, replyTo: null, to: [e.to], cc: [], bcc: [], subject: e.subject, text: e.text, html: null, messageId: `<${randomUUID()}@${e.from.address.split('@')[1] ?? 'localhost'}>`, inReplyTo: null, references: [], attachments: [] }, null),
  };
}

/**
 * The plain mailer for this environment (`MAIL_TRANSPORT=local` or AWS), made on first use. The adapters are imported
 * statically: a deployed bundle holds the local one as a stub (lib/bundling/no-local-adapters.ts), and an `import()`
 * would keep every command of the SES v2 client in it (esbuild stops tree-shaking a lazily initialised module).
 */
export function plainMailer(): PlainMailer {
  instance ??= config.localMail ? localPlainMailer() : sesPlainMailer();
  return instance;
}

/** Drops the cached plain mailer (tests and the local runtime switching transports). */
export function resetPlainMailer(): void {
  instance = undefined;
}

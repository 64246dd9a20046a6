/** The nodemailer message of an `OutboundEmail` (shared by the SMTP, SES raw and local transports). */
import type Mail from 'nodemailer/lib/mailer';
import type { OutboundEmail } from '#ports/mailer';

/** nodemailer's options for `email`: our Message-ID, threading headers, attachments. */
export function mailOptions(email: OutboundEmail): Mail.Options {
  return {
    from: email.from.name ? { name: email.from.name, address: email.from.address } : email.from.address,
    replyTo: email.replyTo ?? undefined,
    to: email.to,
    cc: email.cc.length ? email.cc : undefined,
    bcc: email.bcc.length ? email.bcc : undefined,
    subject: email.subject,
    text: email.text,
    html: email.html ?? undefined,
    messageId: email.messageId,
    inReplyTo: email.inReplyTo ?? undefined,
    references: email.references.length ? email.references : undefined,
    attachments: email.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
  };
}

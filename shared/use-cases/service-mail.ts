/**
 * Email the service sends in its own name to people outside the team (a disclosure recipient's link), from
 * `MAIL_FROM_ADDRESS` through the mail port, with the organization's name as the display name.
 */
import { randomUUID } from 'node:crypto';
import { mailer, serviceSender } from '#ports/mailer';

/** Sends a plain-text email. @throws MailRejected / Error from the transport */
export async function sendServiceEmail(m: { to: string; fromName: string; subject: string; text: string }): Promise<void> {
  const from = serviceSender();
  await (await mailer()).send(
    {
      from: { address: from, name: m.fromName },
      replyTo: null,
      to: [m.to],
      cc: [],
      bcc: [],
      subject: m.subject,
      text: m.text,
      html: null,
      messageId: `<${randomUUID()}@${from.split('@')[1] ?? 'localhost'}>`,
      inReplyTo: null,
      references: [],
      attachments: [],
    },
    null,
  );
}

/**
 * The service's own plain-text email in AWS (sign-in codes, invitations, disclosure links, workspace notices):
 * Amazon SES v2 `SendEmail` with `Simple` content, so the functions that send only these carry the SES client and
 * not nodemailer's MIME composer (~240 KB). SES assigns the Message-ID: nothing threads on these emails.
 */
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { traced } from '#observability/powertools';
import type { PlainEmail, PlainMailer } from '#ports/plain-mailer';
import { rethrowSesFailure } from '#ports/mail/ses-errors';
import { config } from '#ports/config';

let ses: SESv2Client | undefined;

/**
 * `"Name" <address>`: quoted when printable ASCII, else an RFC 2047 encoded word (`=?UTF-8?B?…?=`), which SES
 * requires for a display name outside ASCII.
 */
export function fromHeader(address: string, name: string): string {
  const display = /^[\x20-\x7e]*$/.test(name) ? `"${name.replace(/["\\]/g, '\\$&')}"` : `=?UTF-8?B?${Buffer.from(name, 'utf8').toString('base64')}?=`;
  return `${display} <${address}>`;
}

/** The SES plain-text mailer. @see PlainMailer */
export function sesPlainMailer(): PlainMailer {
  return {
    async send(m: PlainEmail) {
      ses ??= traced(new SESv2Client({}));
      try {
        const out = await ses.send(
          new SendEmailCommand({
            FromEmailAddress: fromHeader(m.from.address, m.from.name),
            Destination: { ToAddresses: [m.to] },
            Content: { Simple: { Subject: { Data: m.subject, Charset: 'UTF-8' }, Body: { Text: { Data: m.text, Charset: 'UTF-8' } } } },
            ConfigurationSetName: config.sesConfigurationSet,
          }),
        );
        return { provider: 'ses', providerMessageId: out.MessageId! };
      } catch (err) {
        rethrowSesFailure(err);
      }
    },
  };
}

/** Forgets the cached client (tests). */
export function resetSesPlainMailer(): void {
  ses = undefined;
}

/**
 * Mail transports in AWS. An email sent through a member's `smtp` account goes to that SMTP server (nodemailer,
 * the password read from Secrets Manager and cached for the container's life); every other email is composed as
 * MIME (nodemailer's MailComposer, so our Message-ID, threading headers and attachments survive) and sent with
 * Amazon SES v2 `SendEmail` (raw content) in the configuration set `SES_CONFIGURATION_SET`, whose events report
 * bounces, complaints and deliveries (functions/email-events).
 */
import { traced } from '#observability/powertools';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import Mail from 'nodemailer/lib/mailer';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { MailAccount } from '#db/mail-accounts';
import { MailRejected, type Mailer, type OutboundEmail, type SentEmail } from '#ports/mailer';
import { mailOptions } from '#ports/mail/compose';
import { rethrowSesFailure } from '#ports/mail/ses-errors';
import { config } from '#ports/config';

let ses: SESv2Client | undefined;
let secrets: SecretsManagerClient | undefined;
const smtpTransports = new Map<string, Mail<SMTPTransport.SentMessageInfo>>();

/** The MIME bytes of `email` (RFC 5322, with our Message-ID). */
export async function composeMime(email: OutboundEmail): Promise<Buffer> {
  return new MailComposer(mailOptions(email)).compile().build();
}

async function sendWithSes(email: OutboundEmail): Promise<SentEmail> {
  ses ??= traced(new SESv2Client({}));
  try {
    const out = await ses.send(
      new SendEmailCommand({
        Content: { Raw: { Data: await composeMime(email) } },
        // The envelope: the composed MIME carries no Bcc header (as it must not), so without it SES would deliver
        // to To and Cc only.
        Destination: { ToAddresses: email.to, CcAddresses: email.cc, BccAddresses: email.bcc },
        ConfigurationSetName: config.sesConfigurationSet,
      }),
    );
    return { provider: 'ses', providerMessageId: out.MessageId! };
  } catch (err) {
    rethrowSesFailure(err);
  }
}

/**
 * An SMTP transport as `nodemailer.createTransport(options)` makes one for these options (no `url`, `pool` or other
 * transport), built from its two parts so the bundle leaves out nodemailer's other transports (pool, sendmail, SES,
 * stream, JSON) and its test-account code.
 */
export const smtpTransportOf = {
  create: (options: SMTPTransport.Options): Mail<SMTPTransport.SentMessageInfo> => new Mail(new SMTPTransport(options), options),
};

async function smtpTransport(account: MailAccount): Promise<Mail<SMTPTransport.SentMessageInfo>> {
  const cached = smtpTransports.get(account.id);
  if (cached) return cached;
  const smtp = account.smtp!;
  secrets ??= traced(new SecretsManagerClient({}));
  const secret = await secrets.send(new GetSecretValueCommand({ SecretId: smtp.secretRef }));
  // Without TLS from the start, STARTTLS is required: the member's password never crosses the network in clear.
  const transport = smtpTransportOf.create({ host: smtp.host, port: smtp.port, secure: smtp.secure, requireTLS: !smtp.secure, auth: { user: smtp.username, pass: secret.SecretString ?? '' } });
  smtpTransports.set(account.id, transport);
  return transport;
}

async function sendWithSmtp(email: OutboundEmail, account: MailAccount): Promise<SentEmail> {
  const transport = await smtpTransport(account);
  try {
    const info = await transport.sendMail(mailOptions(email));
    return { provider: 'smtp', providerMessageId: info.messageId };
  } catch (err) {
    // 5xx replies are permanent (RFC 5321 §4.2.1); anything else may be retried.
    const code = (err as { responseCode?: number }).responseCode;
    if (code !== undefined && code >= 500) throw new MailRejected(`The mailbox's SMTP server refused the message (${code}).`);
    throw err;
  }
}

/** Forgets the cached clients and SMTP transports (tests; a rotated SMTP password is read again after it). */
export function resetAwsMailer(): void {
  ses = undefined;
  secrets = undefined;
  smtpTransports.clear();
}

/** The AWS mailer: SES, or the member's SMTP server for an `smtp` account. */
export function awsMailer(): Mailer {
  return {
    send: (email, via) => (via?.kind === 'smtp' && via.smtp ? sendWithSmtp(email, via) : sendWithSes(email)),
  };
}

/**
 * Local mail transport: every email goes over SMTP to the local runtime's SMTP server (`LOCAL_SMTP_URL`, e.g.
 * `smtp://127.0.0.1:2525`), which keeps each one as an `.eml` file (lib/local/smtp-sink.ts). A member's SMTP account
 * is honoured in spirit only: its host is never dialled from a developer machine.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Mailer } from '#ports/mailer';
import { mailOptions } from '#ports/mail/compose';
import { config } from '#ports/config';

/** @throws Error on first send when `LOCAL_SMTP_URL` is unset */
export function localMailer(): Mailer {
  let transport: Transporter | undefined;
  return {
    async send(email, via) {
      const url = config.localSmtpUrl;
      transport ??= nodemailer.createTransport({ url, ignoreTLS: true });
      const info = await transport.sendMail({
        ...mailOptions(email),
        // Which transport the deployed service would have used, for whoever reads the .eml.
        headers: { 'X-TCS-Transport': via?.kind === 'smtp' ? `smtp ${via.smtp?.host ?? ''}`.trim() : 'ses' },
      });
      return { provider: 'local', providerMessageId: info.messageId };
    },
  };
}

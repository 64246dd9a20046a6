/**
 * SES v2 stand-in: `POST /v2/email/outbound-emails` (`SendEmail`) hands the message to the local SMTP server
 * (lib/local/smtp-sink.ts), raw MIME as composed by the function, or a simple message composed here, with the
 * envelope the request names (To, Cc and Bcc), as SES would deliver it. Answers `{ MessageId }`.
 */
import nodemailer from 'nodemailer';
import { jsonError, type Backend } from '../aws-gateway.ts';

interface SendEmailBody {
  FromEmailAddress?: string;
  Destination?: { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] };
  ReplyToAddresses?: string[];
  Content: { Raw?: { Data: string }; Simple?: { Subject: { Data: string }; Body: { Text?: { Data: string }; Html?: { Data: string } } } };
}

/** @param smtpUrl `smtp://127.0.0.1:<port>` of the local SMTP server */
export function sesEmulator(smtpUrl: string): Backend {
  const transport = nodemailer.createTransport(smtpUrl);
  return async (req) => {
    if (req.method !== 'POST' || req.url.pathname !== '/v2/email/outbound-emails') return jsonError('BadRequestException', `SES ${req.method} ${req.url.pathname} is not emulated`);
    const body = JSON.parse(req.body.toString('utf8')) as SendEmailBody;
    const to = [...(body.Destination?.ToAddresses ?? []), ...(body.Destination?.CcAddresses ?? []), ...(body.Destination?.BccAddresses ?? [])];
    const raw = body.Content.Raw ? Buffer.from(body.Content.Raw.Data, 'base64') : undefined;
    const from = body.FromEmailAddress ?? /^From:.*?<?([^<>\s]+@[^<>\s]+)>?\s*$/im.exec(raw?.toString('utf8') ?? '')?.[1] ?? '';
    const info = raw
      ? await transport.sendMail({ envelope: { from: bare(from), to }, raw })
      : await transport.sendMail({
          from,
          to: body.Destination?.ToAddresses,
          cc: body.Destination?.CcAddresses,
          bcc: body.Destination?.BccAddresses,
          replyTo: body.ReplyToAddresses,
          subject: body.Content.Simple?.Subject.Data,
          text: body.Content.Simple?.Body.Text?.Data,
          html: body.Content.Simple?.Body.Html?.Data,
        });
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ MessageId: String(info.messageId ?? '').replace(/[<>]/g, '') || `local-${Date.now()}` }) };
  };
}

const bare = (address: string): string => /<([^>]+)>/.exec(address)?.[1] ?? address.trim();

/**
 * The AWS mail adapter (shared/ports/mail/aws.ts) with SES and Secrets Manager mocked (aws-sdk-client-mock) and
 * nodemailer's SMTP transport stubbed (`smtpTransportOf.create`): the exact SES command (raw MIME with our Message-ID and threading headers,
 * the envelope with Bcc, the configuration set), which refusals are permanent (`MailRejected`) and which are
 * retried, and the SMTP path (password read once from Secrets Manager, STARTTLS required, 5xx = refused); the
 * service's plain-text mailer (shared/ports/mail/ses-plain.ts: `Simple` content, an encoded display name).
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { AccountSuspendedException, MessageRejected, SendEmailCommand, SESv2Client, TooManyRequestsException } from '@aws-sdk/client-sesv2';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import nodemailer from 'nodemailer';
import { simpleParser } from 'mailparser';
import type { MailAccount } from '#db/mail-accounts';
import { awsMailer, resetAwsMailer, smtpTransportOf } from '#ports/mail/aws';
import { fromHeader, resetSesPlainMailer, sesPlainMailer } from '#ports/mail/ses-plain';
import { MailRejected, type OutboundEmail } from '#ports/mailer';

const sesMock = mockClient(SESv2Client);
const secretsMock = mockClient(SecretsManagerClient);
const savedConfigSet = process.env.SES_CONFIGURATION_SET;

const email: OutboundEmail = {
  from: { address: 'deals@hillcountry.example', name: 'Dana Agent' },
  replyTo: 'reply+abcdefghijklmnopqrst@reply.hillcountry.example',
  to: ['buyer@example.net'],
  cc: ['lender@example.org'],
  bcc: ['archive@hillcountry.example'],
  subject: 'Option period ends Friday',
  text: 'Hello,\nthe option period ends on Friday.',
  html: '<p>Hello,</p><p>the option period ends on Friday.</p>',
  messageId: '<11111111-2222-4333-8444-555555555555@reply.hillcountry.example>',
  inReplyTo: '<00000000-2222-4333-8444-555555555555@reply.hillcountry.example>',
  references: ['<00000000-2222-4333-8444-555555555555@reply.hillcountry.example>'],
  attachments: [{ filename: 'addendum.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.7 test') }],
};

const smtpAccount: MailAccount = {
  id: 'acct-smtp-1',
  userId: 'u-1',
  kind: 'smtp',
  fromAddress: 'dana@hillcountry.example',
  displayName: 'Dana Agent',
  smtp: { host: 'smtp.hillcountry.example', port: 587, secure: false, username: 'dana', secretRef: 'tcs/mail/dana' },
  isDefault: true,
  createdAt: '2026-11-01T00:00:00.000Z',
};

beforeEach(() => {
  sesMock.reset();
  secretsMock.reset();
  resetAwsMailer();
  resetSesPlainMailer();
  process.env.SES_CONFIGURATION_SET = 'tcs-mail';
});
afterEach(() => vi.restoreAllMocks());
afterAll(() => {
  sesMock.restore();
  secretsMock.restore();
  if (savedConfigSet === undefined) delete process.env.SES_CONFIGURATION_SET;
  else process.env.SES_CONFIGURATION_SET = savedConfigSet;
});

describe('SES (no account, or an ses account)', () => {
  it('sends our MIME as raw content in the configuration set, with the envelope (Bcc included)', async () => {
    sesMock.on(SendEmailCommand).resolves({ MessageId: 'ses-0001' });
    const sent = await awsMailer().send(email, null);
    expect(sent).toEqual({ provider: 'ses', providerMessageId: 'ses-0001' });
    expect(sesMock).toHaveReceivedCommandTimes(SendEmailCommand, 1);
    const input = sesMock.commandCalls(SendEmailCommand)[0].args[0].input;
    expect(input.ConfigurationSetName).toBe('tcs-mail');
    expect(input.Destination).toEqual({ ToAddresses: ['buyer@example.net'], CcAddresses: ['lender@example.org'], BccAddresses: ['archive@hillcountry.example'] });
    expect(input.Content?.Simple).toBeUndefined();
    const mime = Buffer.from(input.Content!.Raw!.Data!);
    const parsed = await simpleParser(mime);
    expect(parsed.messageId).toBe(email.messageId);
    expect(parsed.inReplyTo).toBe(email.inReplyTo);
    expect(parsed.references).toBe(email.references[0]);
    expect(parsed.subject).toBe(email.subject);
    expect(parsed.from?.value).toEqual([{ address: 'deals@hillcountry.example', name: 'Dana Agent' }]);
    expect(parsed.replyTo?.text).toBe(email.replyTo);
    expect(parsed.attachments.map((a) => a.filename)).toEqual(['addendum.pdf']);
    // A Bcc recipient travels in the envelope only, never in the headers every recipient sees.
    expect(mime.toString('utf8')).not.toMatch(/^Bcc:/im);
  });

  it('omits the configuration set when SES_CONFIGURATION_SET is unset, and sends an ses account through SES too', async () => {
    delete process.env.SES_CONFIGURATION_SET;
    sesMock.on(SendEmailCommand).resolves({ MessageId: 'ses-0002' });
    const via: MailAccount = { ...smtpAccount, id: 'acct-ses-1', kind: 'ses', smtp: null };
    await awsMailer().send(email, via);
    expect(sesMock).toHaveReceivedCommandTimes(SendEmailCommand, 1);
    expect(sesMock.commandCalls(SendEmailCommand)[0].args[0].input.ConfigurationSetName).toBeUndefined();
    expect(secretsMock).toHaveReceivedCommandTimes(GetSecretValueCommand, 0);
  });

  it('turns a refused message or a paused account into MailRejected (permanent)', async () => {
    sesMock.on(SendEmailCommand).rejects(new MessageRejected({ message: 'Email address is not verified.', $metadata: {} }));
    const refused = await awsMailer().send(email, null).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MailRejected);
    expect((refused as MailRejected).reason).toContain('Email address is not verified.');

    sesMock.reset();
    sesMock.on(SendEmailCommand).rejects(new AccountSuspendedException({ message: 'suspended', $metadata: {} }));
    const paused = await awsMailer().send(email, null).catch((e: unknown) => e);
    expect(paused).toBeInstanceOf(MailRejected);
    expect((paused as MailRejected).reason).toMatch(/paused/);
  });

  it('rethrows throttling as it is (transient: the caller retries)', async () => {
    const throttled = new TooManyRequestsException({ message: 'slow down', $metadata: {} });
    sesMock.on(SendEmailCommand).rejects(throttled);
    const err = await awsMailer().send(email, null).catch((e: unknown) => e);
    expect(err).toBe(throttled);
    expect(err).not.toBeInstanceOf(MailRejected);
  });
});

describe("SMTP (a member's own mailbox)", () => {
  it("builds the transport nodemailer.createTransport would for the same options (an SMTP transport, not a pool)", () => {
    const options = { host: 'smtp.hillcountry.example', port: 587, secure: false, requireTLS: true, auth: { user: 'dana', pass: 'pw' } };
    const built = smtpTransportOf.create(options);
    const reference = nodemailer.createTransport(options);
    expect(built.transporter.name).toBe('SMTP');
    expect(built.transporter.name).toBe(reference.transporter.name);
    expect((built.transporter as unknown as { options: unknown }).options).toEqual((reference.transporter as unknown as { options: unknown }).options);
    expect(built.options).toEqual(reference.options);
  });

  function stubTransport(sendMail: (opts: unknown) => Promise<unknown>) {
    const transport = { sendMail: vi.fn(sendMail) };
    const create = vi.spyOn(smtpTransportOf, 'create').mockReturnValue(transport as never);
    return { transport, create };
  }

  it('reads the password from Secrets Manager once, requires STARTTLS on 587, and sends the same message (Bcc included)', async () => {
    secretsMock.on(GetSecretValueCommand).resolves({ SecretString: 's3cret' });
    const { transport, create } = stubTransport(async () => ({ messageId: email.messageId }));
    const mailer = awsMailer();
    expect(await mailer.send(email, smtpAccount)).toEqual({ provider: 'smtp', providerMessageId: email.messageId });
    await mailer.send(email, smtpAccount);

    expect(secretsMock).toHaveReceivedCommandExactlyOnceWith(GetSecretValueCommand, { SecretId: 'tcs/mail/dana' });
    expect(create).toHaveBeenCalledTimes(1);
    expect(create).toHaveBeenCalledWith({ host: 'smtp.hillcountry.example', port: 587, secure: false, requireTLS: true, auth: { user: 'dana', pass: 's3cret' } });
    expect(transport.sendMail).toHaveBeenCalledTimes(2);
    expect(transport.sendMail.mock.calls[0][0]).toMatchObject({ messageId: email.messageId, to: email.to, cc: email.cc, bcc: email.bcc, inReplyTo: email.inReplyTo });
    expect(sesMock).toHaveReceivedCommandTimes(SendEmailCommand, 0);
  });

  it('uses TLS from the start on 465 (no STARTTLS requirement)', async () => {
    secretsMock.on(GetSecretValueCommand).resolves({ SecretString: 'pw' });
    const { create } = stubTransport(async () => ({ messageId: 'x' }));
    await awsMailer().send(email, { ...smtpAccount, id: 'acct-smtp-465', smtp: { ...smtpAccount.smtp!, port: 465, secure: true } });
    expect(create).toHaveBeenCalledWith(expect.objectContaining({ port: 465, secure: true, requireTLS: false }));
  });

  it('a 5xx reply is MailRejected; a 4xx reply or a connection error is rethrown', async () => {
    secretsMock.on(GetSecretValueCommand).resolves({ SecretString: 'pw' });
    const failures = [Object.assign(new Error('550 mailbox unavailable'), { responseCode: 550 }), Object.assign(new Error('421 try later'), { responseCode: 421 }), new Error('ECONNRESET')];
    let i = 0;
    stubTransport(async () => {
      throw failures[i++];
    });
    const mailer = awsMailer();
    const first = await mailer.send(email, smtpAccount).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(MailRejected);
    expect((first as MailRejected).reason).toContain('550');
    expect(await mailer.send(email, smtpAccount).catch((e: unknown) => e)).toBe(failures[1]);
    expect(await mailer.send(email, smtpAccount).catch((e: unknown) => e)).toBe(failures[2]);
  });
});

describe("the service's plain-text email (SES Simple content)", () => {
  const plain = { from: { address: 'noreply@tcs.example', name: 'Hill Country Realty' }, to: 'buyer@example.net', subject: 'Your sign-in code: 123456', text: 'Your sign-in code is 123456.' };

  it('sends Simple content (UTF-8) to the one recipient, in the configuration set, without a MIME composer', async () => {
    sesMock.on(SendEmailCommand).resolves({ MessageId: 'ses-plain-1' });
    expect(await sesPlainMailer().send(plain)).toEqual({ provider: 'ses', providerMessageId: 'ses-plain-1' });
    expect(sesMock).toHaveReceivedCommandExactlyOnceWith(SendEmailCommand, {
      FromEmailAddress: '"Hill Country Realty" <noreply@tcs.example>',
      Destination: { ToAddresses: ['buyer@example.net'] },
      Content: { Simple: { Subject: { Data: plain.subject, Charset: 'UTF-8' }, Body: { Text: { Data: plain.text, Charset: 'UTF-8' } } } },
      ConfigurationSetName: 'tcs-mail',
    });
  });

  it('quotes an ASCII display name and encodes any other as an RFC 2047 word', () => {
    expect(fromHeader('a@b.example', 'Smith "Home" Team')).toBe('"Smith \\"Home\\" Team" <a@b.example>');
    const encoded = fromHeader('a@b.example', 'Café Realty');
    expect(encoded).toMatch(/^=\?UTF-8\?B\?([A-Za-z0-9+/=]+)\?= <a@b\.example>$/);
    expect(Buffer.from(encoded.split('?')[3], 'base64').toString('utf8')).toBe('Café Realty');
  });

  it('turns a refused message into MailRejected and rethrows throttling', async () => {
    const throttled = new TooManyRequestsException({ message: 'slow down', $metadata: {} });
    sesMock.on(SendEmailCommand).rejectsOnce(new MessageRejected({ message: 'Email address is not verified.', $metadata: {} })).rejectsOnce(throttled);
    const mailer = sesPlainMailer();
    expect(await mailer.send(plain).catch((e: unknown) => e)).toBeInstanceOf(MailRejected);
    expect(await mailer.send(plain).catch((e: unknown) => e)).toBe(throttled);
  });
});

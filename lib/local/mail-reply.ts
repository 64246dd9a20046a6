/**
 * Answering a stored email as its recipient would (`npm run mail -- reply`): the reply goes to the message's
 * `Reply-To` (a deal's `reply+<token>@reply.tcs.localhost` address on the service's sends, else its `From`) through
 * the local SMTP server, which stores it where SES's receipt rule would and hands it to the inbound-email handler,
 * as a mail client's answer would travel. Threading headers follow RFC 5322 §3.6.4 (`In-Reply-To`, `References`)
 * and the subject gets one `Re: ` (§3.6.5).
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { simpleParser, type ParsedMail } from 'mailparser';
import nodemailer from 'nodemailer';
import { localMessagingPaths } from '#lib/local/messaging';
import { storedMail, type StoredMail } from '#lib/local/smtp-sink';

/** A stored email with its parsed headers. */
export interface FoundEmail {
  stored: StoredMail;
  parsed: ParsedMail;
}

/** What was sent. */
export interface SentReply {
  from: string;
  to: string;
  subject: string;
  inReplyTo: string | null;
  messageId: string;
  /** The SMTP server's final answer, e.g. `250 OK: message queued`. */
  response: string;
}

/**
 * The newest stored email that `which` names: a `.eml` file (a path, or a name in the mail directory), else an
 * email whose subject contains `which` (case-insensitive), the service's sends before inbound mail.
 * @returns undefined when none matches
 */
export async function findEmail(dataDir: string, which: string): Promise<FoundEmail | undefined> {
  const all = storedMail(localMessagingPaths(dataDir).mailDir).reverse();
  if (which.endsWith('.eml')) {
    const wanted = path.resolve(which);
    const hit = all.find((m) => m.file === wanted || path.basename(m.file) === path.basename(which));
    return hit && { stored: hit, parsed: await simpleParser(hit.raw) };
  }
  const needle = which.toLowerCase();
  const matches: FoundEmail[] = [];
  for (const m of all) {
    const parsed = await simpleParser(m.raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true });
    if ((parsed.subject ?? '').toLowerCase().includes(needle)) matches.push({ stored: m, parsed });
  }
  return matches.find((f) => f.parsed.replyTo) ?? matches[0];
}

/**
 * `findEmail`, waiting for it: a send the API accepted may still be queued (the send worker delivers it later).
 * @param waitMs how long to look again, every 250 ms
 */
export async function waitForEmail(dataDir: string, which: string, waitMs: number): Promise<FoundEmail | undefined> {
  const until = Date.now() + waitMs;
  for (;;) {
    const found = await findEmail(dataDir, which);
    if (found || Date.now() >= until) return found;
    await sleep(250);
  }
}

/** `Re: <subject>`, without stacking a second `Re:`. */
export const replySubject = (subject: string): string => (/^re:/i.test(subject.trim()) ? subject.trim() : `Re: ${subject.trim()}`);

/**
 * Sends `text` as the answer to `original` over SMTP.
 * @param smtpUrl the local SMTP server, `smtp://127.0.0.1:<port>` (no TLS, no authentication)
 * @param from the answering address; default the original's first envelope recipient
 * @throws Error when the original has neither `Reply-To` nor `From`, or the server refuses the message
 */
export async function sendReply(smtpUrl: string, original: FoundEmail, text: string, from?: string): Promise<SentReply> {
  const { parsed, stored } = original;
  const to = parsed.replyTo?.value[0]?.address ?? parsed.from?.value[0]?.address;
  if (!to) throw new Error(`${path.basename(stored.file)} has neither Reply-To nor From: nobody to answer`);
  const sender = from ?? stored.to[0]!;
  const url = new URL(smtpUrl);
  const transport = nodemailer.createTransport({ host: url.hostname, port: Number(url.port), secure: false, ignoreTLS: true });
  const inReplyTo = parsed.messageId ?? null;
  const references = [...(Array.isArray(parsed.references) ? parsed.references : parsed.references ? [parsed.references] : []), ...(inReplyTo ? [inReplyTo] : [])];
  const subject = replySubject(parsed.subject ?? '');
  try {
    const info = await transport.sendMail({ from: sender, to, subject, text, ...(inReplyTo ? { inReplyTo, references } : {}) });
    return { from: sender, to, subject, inReplyTo, messageId: info.messageId, response: info.response };
  } finally {
    transport.close();
  }
}

/**
 * What the local runtime's messaging stand-ins hold, as one list (`npm run outbox`, `npm run sms -- list`): the emails
 * its SMTP server received (the service's sends, and replies to the deals' reply addresses), the texts the service
 * sent into the SMS sink, and the texts simulated as received. Oldest first, so the newest is last on screen. An
 * email's links are read from its decoded body (mailparser undoes quoted-printable and base64, which break a URL
 * across lines in the raw `.eml`), so a link can be copied from the list as it is.
 */
import { existsSync, readFileSync } from 'node:fs';
import { simpleParser } from 'mailparser';
import { storedMail } from '#lib/local/smtp-sink';
import { LOCAL_INBOUND_DOMAIN, localMessagingPaths } from '#lib/local/messaging';
import type { InboundLogLine } from '#lib/local/sms-events';
import type { SinkText } from '#ports/sms/local';

/** One message in the list. */
export interface OutboxEntry {
  /** ISO 8601: when the SMTP server or the sink got it. */
  at: string;
  channel: 'email' | 'sms';
  /** `inbound`: a reply to a deal (mail to the reply domain, or a simulated text). */
  direction: 'outbound' | 'inbound';
  from: string;
  to: string[];
  /** Email subject; null for texts. */
  subject: string | null;
  /** The text of an SMS; null for email (open the file). */
  body: string | null;
  /** The `.eml` file of an email (absolute); null for texts. */
  file: string | null;
  /** An email's `Reply-To` address (a deal's `reply+…` address on the service's sends); null for texts and when absent. */
  replyTo: string | null;
  /** The http(s) links an email carries, decoded, in order of appearance (text part, then HTML `href`s); [] for texts. */
  links: string[];
  /** For a simulated inbound text: what the service did with it. */
  outcome?: string;
}

const readJsonLines = <T>(file: string): T[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as T)
    : [];

/** The texts of `dataDir`: sent into the sink, and simulated as received; oldest first. */
export function readTexts(dataDir: string): OutboxEntry[] {
  const { smsSink, smsInbound } = localMessagingPaths(dataDir);
  const sent = readJsonLines<SinkText>(smsSink).map((t): OutboxEntry => ({ at: t.sentAt, channel: 'sms', direction: 'outbound', from: t.from, to: [t.to], subject: null, body: t.body, file: null, replyTo: null, links: [] }));
  const received = readJsonLines<InboundLogLine>(smsInbound).map(
    (t): OutboxEntry => ({ at: t.receivedAt, channel: 'sms', direction: 'inbound', from: t.from, to: [t.to], subject: null, body: t.body, file: null, replyTo: null, links: [], outcome: t.outcome }),
  );
  return [...sent, ...received].sort((a, b) => a.at.localeCompare(b.at));
}

const URL_IN_TEXT = /https?:\/\/[^\s<>"')\]]+/g;
const HREF = /href\s*=\s*"(https?:\/\/[^"]+)"/gi;
const decodeEntities = (v: string) => v.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');

/** The distinct http(s) links of an email's decoded text and HTML parts, in order of appearance. */
export function linksOf(text: string, html: string): string[] {
  const found = [...text.matchAll(URL_IN_TEXT)].map((m) => m[0].replace(/[.,;:!?]+$/, ''));
  for (const m of html.matchAll(HREF)) found.push(decodeEntities(m[1]!));
  return [...new Set(found)];
}

/** The emails of `dataDir` (header From and Subject, envelope recipients); oldest first. */
export async function readEmails(dataDir: string): Promise<OutboxEntry[]> {
  const entries: OutboxEntry[] = [];
  for (const m of storedMail(localMessagingPaths(dataDir).mailDir)) {
    const parsed = await simpleParser(m.raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true });
    const inbound = m.to.some((r) => r.toLowerCase().endsWith(`@${LOCAL_INBOUND_DOMAIN}`));
    entries.push({
      at: m.receivedAt,
      channel: 'email',
      direction: inbound ? 'inbound' : 'outbound',
      from: parsed.from?.text || m.from,
      to: m.to,
      subject: parsed.subject ?? '',
      body: null,
      file: m.file,
      replyTo: parsed.replyTo?.value[0]?.address ?? null,
      links: linksOf(parsed.text ?? '', typeof parsed.html === 'string' ? parsed.html : ''),
    });
  }
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}

/** Emails and texts together, oldest first. */
export async function readOutbox(dataDir: string): Promise<OutboxEntry[]> {
  return [...(await readEmails(dataDir)), ...readTexts(dataDir)].sort((a, b) => a.at.localeCompare(b.at));
}

/**
 * One line per entry: time, channel and direction, from → to, subject or text, then the file or the outcome; an
 * email's links follow on their own lines (`    link: <url>`).
 */
export function formatOutbox(entries: readonly OutboxEntry[], cwd = process.cwd()): string {
  if (!entries.length) return 'Nothing sent or received yet.';
  return entries
    .map((e) => {
      const when = e.at.replace('T', ' ').slice(0, 19);
      const what = `${e.channel === 'email' ? 'email' : 'sms  '} ${e.direction === 'inbound' ? '←' : '→'}`;
      const content = e.channel === 'email' ? JSON.stringify(e.subject ?? '') : JSON.stringify(e.body ?? '');
      const tail = e.file ? `  ${relative(e.file, cwd)}` : e.outcome ? `  (${e.outcome})` : '';
      return [`${when}  ${what}  ${e.from} → ${e.to.join(', ')}  ${content}${tail}`, ...e.links.map((l) => `    link: ${l}`)].join('\n');
    })
    .join('\n');
}

const relative = (file: string, cwd: string) => (file.startsWith(cwd + '/') ? file.slice(cwd.length + 1) : file);

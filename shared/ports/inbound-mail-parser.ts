/**
 * A received email's MIME (RFC 5322 / RFC 2045–2049) read into what threading needs, with postal-mime: it decodes
 * charsets with the runtime's `TextDecoder` (Node's full ICU covers ISO-8859-*, Windows-125x, ISO-2022-JP, Shift_JIS,
 * GB18030, …), so the inbound-email worker carries no charset tables of its own (mailparser brought iconv-lite's,
 * ~480 KB, plus encoding-japanese and he). Attachments are parsed and dropped: the thread keeps text and HTML.
 */
import PostalMime, { type Address } from 'postal-mime';

/** A mailbox of an address header; `name` is the decoded display name, or null when there is none. */
export type MailAddress = { address: string; name: string | null };

/** The parts of a received email that threading reads. */
export type InboundMail = {
  /** `Message-ID` as sent, angle brackets included (`<id@host>`), or null when the message has none. */
  messageId: string | null;
  /** The message ids of `In-Reply-To` then `References` (latest first): the message answered is the first of ours. */
  answers: string[];
  subject: string;
  /** The first mailbox of `From`, or undefined when it names none. */
  from: MailAddress | undefined;
  /** The mailboxes of `To` then `Cc`, groups (RFC 5322 §3.4) flattened. */
  to: MailAddress[];
  /** The plain-text body; derived from the HTML when the message has no text part (`textOfHtml`). */
  text: string;
  /** The HTML body, or null when the message has no HTML part (none is made up from the text). */
  html: string | null;
};

/** WHATWG Encoding's index-windows-1252 for bytes 0x80–0x9F (the five it leaves undefined map to themselves). */
const WINDOWS_1252_C1 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/**
 * Text as windows-1252 would have decoded it. Node's `TextDecoder('windows-1252')` (also used for the `iso-8859-1`
 * and `us-ascii` labels, as the WHATWG Encoding standard says) decodes 0x80–0x9F as C1 controls instead of €, smart
 * quotes and dashes on Node 20.18.3+/22.13+ (nodejs/node#56542, #60888). C1 controls have no place in mail text, so
 * each is mapped to its windows-1252 character; on a fixed runtime there are none and this changes nothing.
 */
const repairC1 = (text: string): string => text.replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_C1[c.charCodeAt(0) - 0x80]);

const mailboxes = (addresses: Address[] | Address | undefined): MailAddress[] =>
  (Array.isArray(addresses) ? addresses : addresses ? [addresses] : [])
    .flatMap((a) => (a.group ? a.group : [a]))
    .filter((m) => m.address)
    .map((m) => ({ address: m.address, name: m.name ? repairC1(m.name) : null }));

/** The `<id>` tokens of a message-id list header (RFC 5322 §3.6.4), in header order. */
const messageIdsOf = (header: string | undefined): string[] => header?.match(/<[^<>\s]+>/g) ?? [];

/**
 * The readable text of an HTML body, by postal-mime's own HTML-to-text conversion (block elements and `<br>` become
 * line breaks, entities decoded, scripts and styles dropped). The package exports that conversion only through a
 * parse: a `multipart/mixed` body with an empty text part and this HTML has its HTML part rendered as text. This
 * keeps html-to-text (#domain/html-to-text, with htmlparser2 and entities: ~190 KB) out of the inbound-email worker.
 */
export async function textOfHtml(html: string): Promise<string> {
  const boundary = 'inbound-html-text';
  const mime = [
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    '',
    `--${boundary}`,
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from(html, 'utf8').toString('base64'),
    `--${boundary}--`,
    '',
  ].join('\r\n');
  return ((await PostalMime.parse(mime)).text ?? '').trim();
}

/**
 * @param raw the message as received (RFC 5322 bytes)
 * @returns the message read; an unknown charset label falls back to UTF-8 (postal-mime), so a body never fails a parse
 * @throws Error when the MIME structure exceeds postal-mime's limits (256 nested parts, 2 MiB of headers)
 */
export async function parseInboundMail(raw: Uint8Array): Promise<InboundMail> {
  const mail = await PostalMime.parse(raw);
  const html = mail.html ? repairC1(mail.html) : null;
  return {
    messageId: mail.messageId?.trim() || null,
    answers: [...new Set([...messageIdsOf(mail.inReplyTo), ...messageIdsOf(mail.references).reverse()])],
    subject: repairC1(mail.subject ?? ''),
    from: mailboxes(mail.from)[0],
    to: [...mailboxes(mail.to), ...mailboxes(mail.cc)],
    text: mail.text !== undefined ? repairC1(mail.text) : html ? await textOfHtml(html) : '',
    html,
  };
}

/**
 * The text that shares a document by secure link (spec "Messaging": documents shared by secure expiring link over SMS
 * or in a conversation), and how long a link lives. The link opens `GET /l/{token}` (a 302 to a 5-minute download
 * URL); the thread records the text with the token elided, since only the token's hash is stored.
 */

/** Hours a link lives when the request names none. */
export const DEFAULT_LINK_HOURS = 72;
/** Longest a link may live: a week (a longer-lived link is a standing grant, which a disclosure package serves). */
export const MAX_LINK_HOURS = 168;

/**
 * The text: the sender's message (or a default naming the file and the property), the link, and its lifetime.
 * @param hours the link's lifetime in hours
 */
export function shareText(opts: { message: string | null; fileName: string; address: string; url: string; hours: number }): string {
  const lead = opts.message?.trim() || `Here is "${opts.fileName}" for ${opts.address}.`;
  const lifetime = opts.hours % 24 === 0 ? `${opts.hours / 24} day${opts.hours === 24 ? '' : 's'}` : `${opts.hours} hour${opts.hours === 1 ? '' : 's'}`;
  return `${lead}\n${opts.url}\n(Secure link, expires in ${lifetime}.)`;
}

/** `text` with every occurrence of the link token cut to its first 4 characters and `…`. */
export const elideToken = (text: string, token: string): string => text.split(token).join(`${token.slice(0, 4)}…`);

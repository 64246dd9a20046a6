/**
 * Plain text and HTML of a message body. An email is sent as multipart/alternative (RFC 2046 §5.1.4) with a text
 * part, and the thread, the SMS channel and the PDF log show text, so an HTML-only body gets its text derived
 * (html-to-text: block elements become line breaks, lists get bullets, links keep their URL).
 */
import { convert } from 'html-to-text';

/** The readable text of an HTML body (no line wrapping; images dropped). */
export function htmlToText(html: string): string {
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    ],
  }).trim();
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to place in HTML content or a quoted attribute. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** Plain text as HTML: paragraphs at blank lines, `<br>` at single line breaks, everything escaped. */
export function textToHtml(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => `<p>${escapeHtml(p.trim()).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}

/**
 * The text of an HTML body. An email is sent as multipart/alternative (RFC 2046 §5.1.4) with a text part, and the
 * thread, the SMS channel and the PDF log show text, so an HTML-only body gets its text derived here (html-to-text:
 * block elements become line breaks, lists get bullets, links keep their URL).
 *
 * Loaded with `import()` (shared/use-cases/messaging/send-email.ts): html-to-text with its parser is ~114 KB, which
 * the messaging API group ships as a chunk beside its bundle (lib/bundling/lazy-modules.ts). As a lazily loaded
 * module it imports nothing of the project's own (a chunk holds its own copy of what it imports).
 */
import { convert } from 'html-to-text';

/** The readable text of an HTML body (no line wrapping; images dropped; surrounding whitespace trimmed). */
export function htmlToText(html: string): string {
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    ],
  }).trim();
}

/**
 * HTML of a plain-text message body, and text made safe inside HTML. The reverse, the text of an HTML body, is
 * shared/domain/html-to-text.ts (html-to-text and its parser: loaded only where a body needs it).
 */

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

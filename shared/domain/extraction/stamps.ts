/**
 * E-signature platform stamps: the marks dotloop, DocuSign, Authentisign and the like print over a signed
 * contract ("dotloop verified" over a date, a time and a verification id; "DocuSign Envelope ID: 8F2C…").
 * They land inside the form's text rows — between a label and its value, or glued to a date blank — and are
 * not part of the contract. {@link stampTokenIndexes} finds them so the text model can drop them before any
 * rule reads a page.
 */

/** The subset of a token this module needs: its text and normalized box (0–1, top-left origin). */
export interface StampToken {
  text: string;
  box: { left: number; top: number; width: number; height: number };
}

/** "dotloop", "verified", "DocuSign", "Authentisign", "Envelope", "ID:" — words of a stamp's caption. */
const STAMP_WORD = /^(dotloop|verified|docusign(ed)?|authentisign|envelope|id:?|signed)$/i;
/** A clock time: "3:45", "15:45:02", "3:45PM". */
const TIME = /^\d{1,2}:\d{2}(:\d{2})?([ap]\.?m\.?)?$/i;
/** What follows a time: AM/PM and US time-zone abbreviations (with a "," a text layer may glue to it). */
const TIME_SUFFIX = /^([ap]\.?m\.?|[ecmpah][sd]t|utc|gmt|z)[,.;:]?$/i;
/** A dotloop-style id inside a longer token (a text layer glues it to the printed word it overlaps). */
const EMBEDDED_ID = /[A-Z0-9]{4}(?:-[A-Z0-9]{4}){2,}/;
/** A short numeric date as stamps print it: 07/20/25, 7/20/2025. */
const STAMP_DATE = /^\d{1,2}\/\d{1,2}\/\d{2,4}$/;

/**
 * A verification or envelope id: dash-separated groups of letters and digits with at least 3 groups and both
 * letters and digits ("XJ3K-2LQP-9RTA-77BC", a UUID), or one run of 12+ letters and digits with both.
 */
export function isVerificationId(text: string): boolean {
  const t = text.replace(/[.,;:]+$/, '');
  const mixed = /\d/.test(t) && /[A-Za-z]/.test(t);
  if (!mixed) return false;
  if (/^[A-Za-z0-9]{3,}(-[A-Za-z0-9]{3,}){2,}$/.test(t)) return true;
  return /^[A-Za-z0-9]{12,}$/.test(t) && (t.match(/\d/g) ?? []).length >= 3;
}

const centerY = (t: StampToken) => t.box.top + t.box.height / 2;
const right = (t: StampToken) => t.box.left + t.box.width;

/** True when `b` follows `a` on the same line within `gap` line heights. */
function followsOnLine(a: StampToken, b: StampToken, gap = 1.5): boolean {
  const h = Math.max(a.box.height, b.box.height, 0.001);
  return Math.abs(centerY(a) - centerY(b)) < h / 2 && b.box.left >= a.box.left && b.box.left - right(a) < gap * h;
}

/** One piece of a stamp's text: caption word, short date, clock time, AM/PM, zone, dotloop id. */
const STAMP_PIECE = /^(dotloop|verified|\d{1,2}\/\d{1,2}\/\d{2,4}|\d{1,2}:\d{2}(:\d{2})?|[ap]\.?m\.?|[ecmpah][sd]t|utc|gmt|[A-Z0-9]{4}(?:-[A-Z0-9]{4}){2,})[,.;:]?/i;

/**
 * True when `text` is made only of stamp pieces glued together ("verified07/21/25", "CDTXJ3K-2LQP-9RTA-77BC").
 * With `dates: false` a short date does not count as a piece (a blank's date glued to a stamp's id is kept).
 */
export function isStampText(text: string, dates = true): boolean {
  let t = text;
  for (let m = STAMP_PIECE.exec(t); m && m[0]; m = STAMP_PIECE.exec(t)) {
    if (!dates && STAMP_DATE.test(m[0].replace(/[,.;:]$/, ''))) return false;
    t = t.slice(m[0].length);
  }
  return t.length === 0 && text.length > 0;
}

/**
 * What to do with the tokens that belong to a platform stamp: index (into `tokens`) → the token's text without
 * the stamp ('' to drop the token). A token is cut rather than dropped when a text layer glued a stamp's id
 * to the printed word it overlaps ("laterXJ3K-2LQP-9RTA-77BC" → "later"); glued stamp pieces
 * ("verified07/21/25", "CDTXJ3K-…") are dropped whole.
 */
export function stampEdits(tokens: readonly StampToken[]): Map<number, string> {
  const out = new Map<number, string>();
  for (const i of stampTokenIndexes(tokens)) {
    const t = tokens[i].text;
    const id = EMBEDDED_ID.exec(t);
    const rest = id ? t.replace(id[0], '') : '';
    out.set(i, rest && !isStampText(rest, false) && /[A-Za-z0-9]/.test(rest) ? rest : '');
  }
  return out;
}

/**
 * Indexes (into `tokens`) of the tokens that belong to a platform stamp:
 * - around each "dotloop" word (the stamp's caption) — the caption's words, and within the stamp's small box
 *   (to its right and up to four lines below it) the date, time, AM/PM, time zone and id tokens;
 * - "DocuSign Envelope ID:" / "Authentisign ID:" captions and the id after them;
 * - anywhere: a verification id (see {@link isVerificationId}), and a short date immediately followed by a
 *   clock time (a contract's own blanks hold dates, never a date with a time of day), with the time's AM/PM
 *   and zone.
 * Ordinary words, money and dates without a time are never taken outside a stamp's box.
 */
export function stampTokenIndexes(tokens: readonly StampToken[]): Set<number> {
  const out = new Set<number>();
  tokens.forEach((t, i) => {
    if (isVerificationId(t.text) || EMBEDDED_ID.test(t.text)) out.add(i);
  });
  // dotloop stamps: a caption and, in a small box below/right of it, date/time/id lines.
  tokens.forEach((t, i) => {
    if (!/^dotloop/i.test(t.text)) return;
    out.add(i);
    const h = Math.max(t.box.height, 0.004);
    const box = { left: t.box.left - h, right: t.box.left + Math.max(0.16, 3 * t.box.width), top: t.box.top - h / 2, bottom: t.box.top + 4.5 * h };
    tokens.forEach((u, j) => {
      const cx = u.box.left + u.box.width / 2;
      const cy = centerY(u);
      if (cx < box.left || cx > box.right || cy < box.top || cy > box.bottom) return;
      if (isStampText(u.text) || isVerificationId(u.text)) out.add(j);
    });
  });
  // Envelope/ID captions: "DocuSign Envelope ID: …", "Authentisign ID: …".
  tokens.forEach((t, i) => {
    if (!/^(docusign|authentisign)/i.test(t.text)) return;
    out.add(i);
    // Follow the caption's words to the right: "Envelope", "ID:", then the id.
    let prev = t;
    for (;;) {
      const next = tokens.findIndex((u, j) => !out.has(j) && followsOnLine(prev, u) && (STAMP_WORD.test(u.text) || isVerificationId(u.text)));
      if (next < 0) break;
      out.add(next);
      prev = tokens[next];
    }
  });
  // A stamp date followed by a clock time (and its AM/PM and zone), wherever it sits.
  tokens.forEach((t, i) => {
    if (!STAMP_DATE.test(t.text)) return;
    // Within three line heights: DocuSign prints "7/19/2025 | 2:05 PM PDT".
    const time = tokens.findIndex((u) => TIME.test(u.text) && followsOnLine(t, u, 3));
    if (time < 0) return;
    out.add(i);
    out.add(time);
    let prev = tokens[time];
    for (let k = 0; k < 2; k++) {
      const next = tokens.findIndex((u) => TIME_SUFFIX.test(u.text) && followsOnLine(prev, u, 1));
      if (next < 0) break;
      out.add(next);
      prev = tokens[next];
    }
  });
  return out;
}

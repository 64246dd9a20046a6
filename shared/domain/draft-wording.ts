/**
 * Built-in wording for message drafts (`POST /transactions/{id}/draft-message`). There is no language model here: the
 * intent is matched to one of a few kinds by keywords, and that kind's sentences are filled with the deal's facts
 * (address, status, upcoming key dates), the recipient and the sender. The result is a starting point that a person
 * reviews; nothing is sent.
 */
import { textToHtml } from '#domain/html-text';

/** The kinds of message the rules know, in the order they are tried. */
export const DRAFT_KINDS = [
  'introduction',
  'document_request',
  'deadline_reminder',
  'closing',
  'scheduling',
  'thank_you',
  'follow_up',
  'status_update',
  'general',
] as const;
export type DraftKind = (typeof DRAFT_KINDS)[number];

/** Keywords of each kind (whole-word starts, case-insensitive); the first kind whose pattern matches wins. */
const KEYWORDS: Record<Exclude<DraftKind, 'general'>, RegExp> = {
  introduction: /\b(introduc|intro\b|welcome|kick-?off|first contact)/i,
  document_request: /\b(documents?|docs?\b|paperwork|sign(ature|ed)?\b|upload|disclosures?|pre-?approval|statements?|receipts?|proof of|insurance|w-?9|id\b)/i,
  deadline_reminder: /\b(deadlines?|remind|due\b|expir|option period|cut-?off|last day)/i,
  closing: /\b(closing|close of escrow|walk-?through|keys|funding|settlement|final numbers|cd\b|closing disclosure)/i,
  scheduling: /\b(schedul|appointment|availability|available|book|showing|time slot|calendar)/i,
  thank_you: /\b(thank|thanks|appreciat|congrat)/i,
  follow_up: /\b(follow(ing)?[- ]?up|check(ing)?[- ]in|circle back|touch base|haven'?t heard|nudge)/i,
  status_update: /\b(update|status|progress|where (we|things) stand|news|milestone|recap)/i,
};

/** The kind of message an intent asks for (`general` when no keyword matches). */
export function draftKindOf(intent: string): DraftKind {
  return DRAFT_KINDS.find((k) => k !== 'general' && KEYWORDS[k].test(intent)) ?? 'general';
}

/** The facts a draft may use. Dates are calendar dates `YYYY-MM-DD`. */
export interface DraftFacts {
  address: string;
  status: string;
  side: 'Buyer' | 'Seller';
  /** Upcoming, not completed key dates, soonest first. */
  upcoming: { label: string; date: string }[];
  closingDate: string | null;
  recipientName: string | null;
  recipientRole: string | null;
  senderName: string | null;
  additionalContext: string | null;
}

/** A draft: email subject and body (text and HTML) and a short SMS version. */
export interface DraftWording {
  kind: DraftKind;
  subject: string;
  bodyText: string;
  bodyHtml: string;
  smsText: string;
}

let spoken: Intl.DateTimeFormat | undefined;

/** `2026-12-15` → `Tuesday, December 15` (US English); a text that is not a calendar date is returned as it is. */
export function spokenDate(date: string): string {
  const day = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date.slice(0, 10)) return date;
  spoken ??= new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric' });
  return spoken.format(day);
}

/** `InspectionDeadline` → `Inspection deadline`. */
export const humanize = (keyDateType: string): string => {
  const words = keyDateType.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const dateLines = (f: DraftFacts, max: number) => f.upcoming.slice(0, max).map((d) => `- ${d.label}: ${spokenDate(d.date)}`);

/** Each kind's subject, opening paragraphs and whether to list the upcoming dates. */
function sentences(kind: DraftKind, f: DraftFacts): { subject: string; paragraphs: string[]; dates: boolean } {
  const next = f.upcoming[0];
  const closing = f.closingDate ? ` on ${spokenDate(f.closingDate)}` : '';
  switch (kind) {
    case 'introduction':
      return {
        subject: `Introduction: ${f.address}`,
        paragraphs: [`I'm ${f.senderName ?? 'the transaction coordinator'}, and I'll be coordinating the transaction for ${f.address}${f.recipientRole ? ` with you as ${article(f.recipientRole)}` : ''}.`, "I'll keep you posted on deadlines and on anything we need from you. These are the dates ahead:"],
        dates: true,
      };
    case 'document_request':
      return { subject: `Documents needed for ${f.address}`, paragraphs: [`To keep ${f.address} on track, could you send us the documents we still need?`], dates: false };
    case 'deadline_reminder':
      return {
        subject: next ? `Reminder: ${next.label} ${spokenDate(next.date)}` : `Reminder: upcoming deadlines for ${f.address}`,
        paragraphs: [next ? `A quick reminder for ${f.address}: the ${next.label.toLowerCase()} is ${spokenDate(next.date)}.` : `A quick reminder about the upcoming deadlines for ${f.address}.`],
        dates: true,
      };
    case 'closing':
      return { subject: `Closing plans for ${f.address}`, paragraphs: [`We're getting ready to close on ${f.address}${closing}. Here is what is still ahead:`], dates: true };
    case 'scheduling':
      return { subject: `Scheduling for ${f.address}`, paragraphs: [`Could you share a few times that work for you this week for ${f.address}?`], dates: false };
    case 'thank_you':
      return { subject: `Thank you: ${f.address}`, paragraphs: [`Thank you for your help with ${f.address}. It makes a real difference in keeping things on schedule.`], dates: false };
    case 'follow_up':
      return { subject: `Following up on ${f.address}`, paragraphs: [`I'm following up on ${f.address}. Could you let me know where things stand on your side?`], dates: false };
    case 'status_update':
      return { subject: `Update on ${f.address}`, paragraphs: [`Here is where things stand on ${f.address}: the transaction is ${f.status}.`], dates: true };
    case 'general':
      return { subject: f.address, paragraphs: [`I'm reaching out about ${f.address}.`], dates: false };
  }
}

/** `Listing Agent` → `the listing agent`; `Buyer` → `the buyer`. */
const article = (role: string) => `the ${role.toLowerCase()}`;

/** The draft for `kind` with `facts`. */
export function draftWording(kind: DraftKind, f: DraftFacts): DraftWording {
  const s = sentences(kind, f);
  const firstName = f.recipientName?.trim().split(/\s+/)[0];
  const greeting = firstName ? `Hi ${firstName},` : 'Hello,';
  const dates = s.dates ? dateLines(f, 3) : [];
  const paragraphs = [
    greeting,
    ...s.paragraphs,
    ...(dates.length ? [dates.join('\n')] : []),
    ...(f.additionalContext?.trim() ? [f.additionalContext.trim()] : []),
    'Please let me know if you have any questions.',
    ['Thank you,', f.senderName].filter(Boolean).join('\n'),
  ];
  const bodyText = paragraphs.join('\n\n');
  const sms = [greeting, s.paragraphs[0], dates.length && kind !== 'introduction' ? dates[0].slice(2) + '.' : '', f.senderName ? `- ${f.senderName}` : ''].filter(Boolean).join(' ');
  return { kind, subject: s.subject, bodyText, bodyHtml: textToHtml(bodyText), smsText: sms.length > 320 ? `${sms.slice(0, 319)}…` : sms };
}

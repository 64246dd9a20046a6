/**
 * Rules of AI proposals of key-date changes, without I/O: which key dates a later extraction changes and the
 * citations that support each; which dates an email or text states; the parameters a person may edit; and when
 * a proposal is stale.
 */
import { createHash } from 'node:crypto';
import * as chrono from 'chrono-node';
import type { ComputedKeyDate, ContractFieldName, ExtractionResult } from '#domain/extraction/types';
import { calendarDateOf } from '#domain/iso-dates';

/** A real calendar date `YYYY-MM-DD` (not a date-time). */
const isCalendarDate = (s: string) => s.length === 10 && calendarDateOf(s) === s;

/** A key date a proposal would set, with the deal's value when it was made. */
export interface KeyDateDelta {
  keyDateType: string;
  dateValue: string;
  currentValue: string | null;
  calculationNotes: string | null;
}

/**
 * The contract fields each computed key date is read or computed from (shared/domain/extraction/key-dates.ts):
 * their citations are the evidence of a proposed change.
 */
export const KEY_DATE_EVIDENCE_FIELDS: Record<string, ContractFieldName[]> = {
  ClosingDate: ['closingDate'],
  InspectionDeadline: ['effectiveDate', 'optionPeriodDays'],
  EarnestMoneyDue: ['effectiveDate', 'earnestMoney'],
  OptionFeeDue: ['effectiveDate', 'optionFee'],
  SurveyDeadline: ['effectiveDate', 'surveyDays'],
  TitleObjectionDeadline: ['effectiveDate', 'titleObjectionDays', 'closingDate'],
  FinancingDeadline: ['effectiveDate', 'financingDeadlineDays'],
};

/** Key dates of `computed` that differ from (or are absent on) the deal, in the extraction's order. */
export function changedKeyDates(current: readonly { keyDateType: string; dateValue: string }[], computed: readonly ComputedKeyDate[]): KeyDateDelta[] {
  const now = new Map(current.map((k) => [k.keyDateType, k.dateValue]));
  return computed
    .filter((k) => now.get(k.keyDateType) !== k.dateValue)
    .map((k) => ({ keyDateType: k.keyDateType, dateValue: k.dateValue, currentValue: now.get(k.keyDateType) ?? null, calculationNotes: k.calculationNotes }));
}

/** The citations of the fields behind each changed key date (a field cited once per key date). */
export function extractionEvidence(result: ExtractionResult, types: readonly string[], ids: { jobId: string; documentId: string }) {
  return types.flatMap((keyDateType) =>
    (KEY_DATE_EVIDENCE_FIELDS[keyDateType] ?? []).flatMap((field) =>
      (result.fields[field]?.citations ?? []).map((c) => ({
        kind: 'document_citation' as const,
        keyDateType,
        field,
        text: c.text,
        documentId: ids.documentId,
        jobId: ids.jobId,
        page: c.page,
        boundingBox: c.boundingBox,
        messageId: null,
        channel: null,
        from: null,
      })),
    ),
  );
}

/** Words that name a key date in a message, per type (first match wins for a date nearest to it). */
const KEY_DATE_WORDS: [string, RegExp][] = [
  ['ClosingDate', /\b(closing|close of escrow|coe|close)\b/gi],
  ['InspectionDeadline', /\b(option period|option deadline|option ends|inspection (period|deadline))\b/gi],
  ['FinancingDeadline', /\b(financing|loan approval|lender approval|buyer approval)\b/gi],
  ['AppraisalDeadline', /\bapprais(al|e)\b/gi],
  ['SurveyDeadline', /\bsurvey\b/gi],
  ['TitleObjectionDeadline', /\btitle objections?\b/gi],
  ['EarnestMoneyDue', /\bearnest money\b/gi],
];

/** A change is stated, not just a date mentioned ("the appraisal is Friday" proposes nothing). */
const CHANGE_CUE = /\b(mov(e|ed|ing)|new|chang(e|ed|ing)|extend(ed|ing)?|extension|push(ed)?|reschedul\w*|postpon\w*|delay(ed)?|amend\w*|revis\w*|instead|now)\b/i;

/** A date stated in a message for a key date, with the sentence it was read in. */
export interface StatedKeyDate {
  keyDateType: string;
  /** `YYYY-MM-DD`. */
  dateValue: string;
  sentence: string;
}

/**
 * Key dates a message states as changed: per sentence that has a change cue, each date chrono-node reads (a
 * stated day or weekday; relative dates like "next Friday" count from `receivedAt`, forward) is given to the nearest key-date
 * word of that sentence. The first date stated for a type wins.
 * @param text plain text of the message (quoted replies, lines starting with `>`, are ignored)
 */
export function keyDatesStatedIn(text: string, receivedAt: Date): StatedKeyDate[] {
  const own = text
    .split(/\r?\n/)
    .filter((l) => !l.trimStart().startsWith('>'))
    .join('\n');
  const out = new Map<string, StatedKeyDate>();
  for (const sentence of own.split(/(?<=[.!?])\s+(?=[A-Z])|\n+/)) {
    if (!CHANGE_CUE.test(sentence)) continue;
    const words = KEY_DATE_WORDS.flatMap(([type, re]) => [...sentence.matchAll(re)].map((m) => ({ type, at: m.index ?? 0 })));
    if (!words.length) continue;
    for (const r of chrono.parse(sentence, receivedAt, { forwardDate: true })) {
      // A day, or a weekday ("next Friday"); not "now"/"today", which a change cue like "now ends" also reads as.
      if (!(r.start.isCertain('day') || r.start.isCertain('weekday')) || /^(now|today|tonight)$/i.test(r.text.trim())) continue;
      const date = `${String(r.start.get('year')).padStart(4, '0')}-${String(r.start.get('month')).padStart(2, '0')}-${String(r.start.get('day')).padStart(2, '0')}`;
      if (!isCalendarDate(date)) continue;
      const nearest = words.reduce((best, w) => (Math.abs(w.at - r.index) < Math.abs(best.at - r.index) ? w : best));
      if (!out.has(nearest.type)) out.set(nearest.type, { keyDateType: nearest.type, dateValue: date, sentence: sentence.trim().slice(0, 500) });
    }
  }
  return [...out.values()];
}

/** One line naming the changes, e.g. `ClosingDate 2025-10-03 → 2025-10-17; SurveyDeadline (new) 2025-09-10`. */
export const summaryOf = (deltas: readonly KeyDateDelta[]): string =>
  deltas.map((d) => `${d.keyDateType} ${d.currentValue ?? '(new)'} → ${d.dateValue}`).join('; ');

/**
 * A uuid derived from `name` (same name, same id): a retried producer makes the same proposal, which its
 * conditional create then refuses. Shaped as an RFC 9562 version-8 uuid.
 */
export function derivedUuid(name: string): string {
  const h = createHash('sha256').update(name).digest('hex').slice(0, 32).split('');
  h[12] = '8';
  h[16] = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

/**
 * Validates edited parameters: `{ keyDates: [{ keyDateType, dateValue }] }`, at least one, each type one the
 * proposal proposed (an edit changes values, it does not widen what the evidence supports), no type twice,
 * `dateValue` a calendar date `YYYY-MM-DD`.
 * @returns the parameters, or `fields` naming each problem (paths under `parameters`)
 */
export function parseEditedParameters(value: unknown, proposedTypes: readonly string[]): { keyDates: { keyDateType: string; dateValue: string }[] } | { fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { fields: { parameters: 'must be an object { keyDates: [{ keyDateType, dateValue }] }' } };
  const list = (value as Record<string, unknown>).keyDates;
  if (!Array.isArray(list) || list.length === 0) return { fields: { 'parameters.keyDates': 'must be a non-empty array of { keyDateType, dateValue }' } };
  const unknownKeys = Object.keys(value).filter((k) => k !== 'keyDates');
  for (const k of unknownKeys) fields[`parameters.${k}`] = 'is not an editable parameter';
  const seen = new Set<string>();
  const keyDates: { keyDateType: string; dateValue: string }[] = [];
  list.forEach((entry, i) => {
    const at = `parameters.keyDates[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return void (fields[at] = 'must be an object { keyDateType, dateValue }');
    const { keyDateType, dateValue } = entry as Record<string, unknown>;
    if (typeof keyDateType !== 'string' || !proposedTypes.includes(keyDateType)) fields[`${at}.keyDateType`] = `must be one of the proposed key dates: ${proposedTypes.join(', ')}`;
    else if (seen.has(keyDateType)) fields[`${at}.keyDateType`] = 'appears twice';
    if (typeof dateValue !== 'string' || !isCalendarDate(dateValue)) fields[`${at}.dateValue`] = 'must be a calendar date YYYY-MM-DD';
    if (typeof keyDateType === 'string') seen.add(keyDateType);
    if (typeof keyDateType === 'string' && typeof dateValue === 'string') keyDates.push({ keyDateType, dateValue });
  });
  return Object.keys(fields).length ? { fields } : { keyDates };
}

/**
 * Why a proposal no longer fits the deal: each key date it changes whose value moved since it was made.
 * @returns messages; empty when it still applies
 */
export function staleReasons(basis: Readonly<Record<string, string | null>>, types: readonly string[], current: readonly { keyDateType: string; dateValue: string }[]): string[] {
  const now = new Map(current.map((k) => [k.keyDateType, k.dateValue]));
  return types
    .filter((t) => Object.hasOwn(basis, t) && (now.get(t) ?? null) !== basis[t])
    .map((t) => `${t} is now ${now.get(t) ?? 'absent'} (was ${basis[t] ?? 'absent'} when proposed)`);
}

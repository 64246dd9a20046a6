/**
 * Key dates computed from extracted contract fields. All dates are calendar dates `YYYY-MM-DD`; periods are
 * whole calendar days counted from the day after the start date (Effective Date + 3 days = the third day
 * after it).
 *
 * What TREC 20-18 (11-04-2024) itself says about weekends and holidays — and nothing more is applied:
 * - ¶5A(2): "If the last day to deliver the earnest money, Option Fee, or the additional earnest money falls
 *   on a Saturday, Sunday, or legal holiday, the time to deliver … is extended until the end of the next day
 *   that is not a Saturday, Sunday, or legal holiday." → applied to EarnestMoneyDue and OptionFeeDue.
 * - ¶5B (Option Period) has no such extension: notices "must be given by 5:00 p.m. … by the date specified",
 *   and ¶5E makes time of the essence. → InspectionDeadline is never moved.
 * - ¶9A (Closing Date), ¶6C (survey) and ¶6D (objections) have no such extension either. → as computed.
 * - ¶23 of this edition is "CONSULT AN ATTORNEY BEFORE SIGNING"; it contains no time rule.
 * TREC 20-15 and earlier (option in ¶23, see trec-forms.ts) extend only the earnest money (¶5); their ¶23
 * Option Fee and option period are not extended. Other TREC forms cite their own number (e.g. "TREC 30-18 ¶9A").
 *
 * Forms that print their deadlines as dates (Colorado CBS1's §3 Dates and Deadlines table) hand them over as
 * {@link StatedDate}s, each with its own citation; they are used as written, moved only by the form's own
 * weekend rule.
 * "Legal holiday" is not defined by the form; {@link legalHolidays} `TX` (federal ∪ Texas office-closing
 * holidays, see holidays.ts) is used.
 */
import { addDays } from '#domain/calendar';
import type { ComputedKeyDate, ContractFields, ExtractionResult } from '#domain/extraction/types';
import { nonBusinessReason, nextBusinessDay, weekdayName, type HolidayJurisdiction } from '#domain/extraction/holidays';

/** Key-date types this module produces (the API's controlled vocabulary plus extraction-specific ones). */
export type ExtractedKeyDateType =
  | 'ClosingDate'
  | 'InspectionDeadline'
  | 'EarnestMoneyDue'
  | 'OptionFeeDue'
  | 'SurveyDeadline'
  | 'TitleObjectionDeadline'
  | 'FinancingDeadline';

/**
 * Terms printed in the form (not filled in) that key-date math needs. For TREC 20-18 they are read from the
 * document's own text by `readTrecTerms` (trec-20-18.ts); {@link TREC_20_18_TERMS} holds the official blank's
 * wording as the fallback.
 */
export interface FormTerms {
  /** ¶5A: "Within N days after the Effective Date, Buyer must deliver … earnest money … and … the Option Fee". */
  earnestMoneyDays?: number;
  /** ¶6B: "Within N days after the Title Company receives a copy of this contract, Seller shall furnish … Commitment". */
  commitmentDays?: number;
  /** Key dates the form's Saturday/Sunday/legal-holiday extension covers (¶5A(2)), with the paragraph cited. */
  weekendRule?: { paragraph: string; appliesTo: ExtractedKeyDateType[] };
  /** Date the Title Company acknowledged receipt of the contract (page 11 "CONTRACT RECEIPT"), when filled. */
  titleCompanyReceiptDate?: string;
  /** Which terms came from the document text vs the official blank's wording (for notes/warnings). */
  readFromDocument?: { earnestMoneyDays: boolean; commitmentDays: boolean; weekendRule: boolean };
  /** Days after the Effective Date the Option Fee is due, when the form says so apart from the earnest money (20-15 ¶23). */
  optionFeeDays?: number;
  /** Paragraph of each rule, for citations (default {@link TREC_PARAGRAPHS}). */
  paragraphs?: FormParagraphs;
  /** Deadlines the form states as dates (CBS1 §3), used as written. */
  statedDates?: StatedDate[];
  /** Holiday calendar of the form's weekend rule (default: TX for TREC, else US). */
  jurisdiction?: HolidayJurisdiction;
}

/** A deadline printed as a date in the contract, with where it was read. */
export interface StatedDate {
  keyDateType: ExtractedKeyDateType;
  /** `YYYY-MM-DD`. */
  date: string;
  label: string;
  /** e.g. "CBS1-8-24 §3.1 item 27 (§10.3 Inspection Objection Deadline)". */
  source: string;
}

/** Where each rule is printed: paragraph references used in calculation notes. */
export interface FormParagraphs {
  closing: string;
  option: string;
  earnestMoney: string;
  optionFee: string;
  survey: string;
  objection: string;
  commitment: string;
}

/** TREC 20-18's paragraphs (and those of every TREC form with the option in ¶5). */
export const TREC_PARAGRAPHS: FormParagraphs = {
  closing: '¶9A',
  option: '¶5B',
  earnestMoney: '¶5A',
  optionFee: '¶5A',
  survey: '¶6C',
  objection: '¶6D',
  commitment: '¶6B',
};

/** The official TREC 20-18 (11-04-2024) blank's wording: ¶5A "Within 3 days", ¶6B "Within 20 days", ¶5A(2). */
export const TREC_20_18_TERMS: FormTerms = {
  earnestMoneyDays: 3,
  commitmentDays: 20,
  weekendRule: { paragraph: '¶5A(2)', appliesTo: ['EarnestMoneyDue', 'OptionFeeDue'] },
};

/** Result of {@link computeKeyDates}: the dates that could be computed and why others were not. */
export interface KeyDatesResult {
  keyDates: ComputedKeyDate[];
  warnings: string[];
}

const kd = (keyDateType: ExtractedKeyDateType, dateValue: string, label: string, calculationNotes: string): ComputedKeyDate => ({
  keyDateType,
  dateValue,
  label,
  calculationNotes,
  source: 'extraction',
});

/**
 * Computes key dates from extracted fields.
 *
 * - `ClosingDate` — ¶9A, as written (never moved; see the module doc).
 * - `InspectionDeadline` — end of the Option Period: Effective Date + option days (TREC 20-18 ¶5B), not
 *   extended. Generic contracts: Effective Date + inspection/due-diligence days.
 * - `EarnestMoneyDue`, `OptionFeeDue` — Effective Date + N days, N read from ¶5A's text, extended past a
 *   Saturday, Sunday or legal holiday per ¶5A(2). OptionFeeDue only when an Option Fee is stated (¶5D).
 * - `SurveyDeadline` — Effective Date + survey days (¶6C).
 * - `TitleObjectionDeadline` — ¶6D: the earlier of the Closing Date and N days after Buyer receives the
 *   Commitment, Exception Documents and survey. Receipt is unknown at extraction, so the latest *delivery
 *   deadline* is used (Commitment: ¶6B days after the Title Company receives the contract — its receipt date
 *   when filled, else the Effective Date; survey: ¶6C), and the notes say so.
 * - `FinancingDeadline` — only from `fields.financingDeadlineDays` (Third Party Financing Addendum); otherwise
 *   the warning "FinancingDeadline not set: …" saying why (no financing addendum gives one; or, when ¶22 checks
 *   one, that the addendum is a separate form whose deadline must be entered). Never guessed.
 *
 * Paragraphs are cited as `${formType} ${paragraph}` from `terms.paragraphs` (TREC 20-18's by default); a type in
 * `terms.statedDates` (CBS1's §3.1 table) is taken as written instead of computed, with its own citation, and
 * moved only when `terms.weekendRule` covers it.
 *
 * `terms` defaults to {@link TREC_20_18_TERMS} for TREC forms and to none for others. Dates that need a
 * missing field are skipped with a warning naming the field.
 */
export function computeKeyDates(
  fields: ContractFields,
  formType: ExtractionResult['formType'],
  terms: FormTerms = formType.startsWith('TREC ') ? TREC_20_18_TERMS : {},
  jurisdiction: HolidayJurisdiction = terms.jurisdiction ?? (formType.startsWith('TREC ') ? 'TX' : 'US'),
): KeyDatesResult {
  const trec = formType.startsWith('TREC ');
  const para = terms.paragraphs ?? TREC_PARAGRAPHS;
  const cite = (p: string, generic = 'contract') => (trec ? `${formType} ${p}` : generic);
  const stated = new Map((terms.statedDates ?? []).map((d) => [d.keyDateType, d]));
  const keyDates: ComputedKeyDate[] = [];
  const warnings: string[] = [];
  const eff = fields.effectiveDate.value;
  const closing = fields.closingDate.value;
  const ruleFor = (type: ExtractedKeyDateType) =>
    terms.weekendRule && terms.weekendRule.appliesTo.includes(type) ? terms.weekendRule : undefined;
  const recognized = formType !== 'generic';

  /** "; falls on Saturday X → extended to Monday Y (para)" or "; falls on Saturday X — not extended (…)". */
  const weekendNote = (type: ExtractedKeyDateType, date: string): { date: string; note: string } => {
    const reason = nonBusinessReason(date, jurisdiction);
    if (!reason) return { date, note: '' };
    const rule = ruleFor(type);
    if (rule) {
      const moved = nextBusinessDay(date, jurisdiction);
      return {
        date: moved,
        note: `; falls on ${reason} ${date} → extended to ${weekdayName(moved)} ${moved} (${formType} ${rule.paragraph})`,
      };
    }
    const covered = terms.weekendRule?.appliesTo.includes('OptionFeeDue') ? 'the earnest money, Option Fee and additional earnest money deadlines' : 'the earnest money deadline';
    const why = trec
      ? `the form extends only ${covered} (${cite(terms.weekendRule?.paragraph ?? '¶5A(2)')})`
      : recognized
        ? `the form's weekend and holiday extension is not elected${terms.weekendRule ? ' for this deadline' : ''}`
        : 'no weekend or holiday rule applied to a generic contract; check its time-computation clause';
    return { date, note: `; falls on ${reason} ${date} — not extended: ${why}` };
  };

  const fromEffective = (type: ExtractedKeyDateType, days: number, label: string, p: string, extra = '') => {
    const raw = addDays(eff!, days);
    const { date, note } = weekendNote(type, raw);
    keyDates.push(kd(type, date, label, `Effective Date ${eff} + ${days} days (${trec ? cite(p) : p})${extra}${note}`));
    return date;
  };

  /** A deadline the form states as a date: as written, moved only by the form's weekend rule. */
  const fromStated = (d: StatedDate): string => {
    const { date, note } = weekendNote(d.keyDateType, d.date);
    keyDates.push(kd(d.keyDateType, date, d.label, `${d.label} ${d.date} as written (${d.source})${note}`));
    return date;
  };

  // ClosingDate — ¶9A (or the form's closing paragraph), as written.
  if (closing) {
    const { date, note } = weekendNote('ClosingDate', closing);
    keyDates.push(kd('ClosingDate', date, 'Closing Date', `Closing Date ${closing} as written (${recognized ? `${formType} ${para.closing}` : 'contract'})${note}`));
    if (note && date === closing) warnings.push(`ClosingDate ${closing} falls on ${nonBusinessReason(closing, jurisdiction)}; not extended`);
  } else warnings.push('ClosingDate not set: closing date missing');

  let surveyDue: string | undefined;
  for (const d of stated.values()) {
    if (d.keyDateType === 'ClosingDate') continue;
    const date = fromStated(d);
    if (d.keyDateType === 'SurveyDeadline') surveyDue = date;
  }

  if (!eff) {
    warnings.push('Effective Date missing: deadlines counted from it are not computed');
  } else {
    // InspectionDeadline — ¶5B (option period) or the generic inspection period.
    const optionDays = fields.optionPeriodDays.value;
    if (stated.has('InspectionDeadline')) {
      // Stated by the form (fromStated above).
    } else if (optionDays !== null) {
      fromEffective(
        'InspectionDeadline',
        optionDays,
        trec ? 'Option Period ends (5:00 p.m. local time)' : 'Inspection period ends',
        trec ? para.option : 'inspection period',
      );
    } else warnings.push(`InspectionDeadline not set: ${trec ? 'option period days' : 'inspection period days'} missing`);

    // EarnestMoneyDue / OptionFeeDue — ¶5A, extended per ¶5A(2).
    if (terms.earnestMoneyDays !== undefined) {
      const src = terms.readFromDocument && !terms.readFromDocument.earnestMoneyDays ? ' [days from the official form text]' : '';
      if (fields.earnestMoney.value !== null && !stated.has('EarnestMoneyDue')) {
        fromEffective('EarnestMoneyDue', terms.earnestMoneyDays, 'Earnest money due', para.earnestMoney, src);
      }
      if (fields.optionFee.value !== null && fields.optionFee.value > 0) {
        fromEffective('OptionFeeDue', terms.optionFeeDays ?? terms.earnestMoneyDays, 'Option Fee due', para.optionFee, src);
      }
    }

    // SurveyDeadline — ¶6C.
    const surveyDays = fields.surveyDays.value;
    if (surveyDays !== null && !stated.has('SurveyDeadline')) surveyDue = fromEffective('SurveyDeadline', surveyDays, 'Survey due', para.survey);

    // TitleObjectionDeadline — ¶6D.
    const objectionDays = fields.titleObjectionDays.value;
    if (stated.has('TitleObjectionDeadline')) {
      // Stated by the form (fromStated above).
    } else if (objectionDays !== null && trec && terms.commitmentDays !== undefined) {
      const receipt = terms.titleCompanyReceiptDate ?? eff;
      const receiptWhy = terms.titleCompanyReceiptDate
        ? `Title Company received the contract ${receipt}`
        : `Title Company receipt of the contract assumed on the Effective Date ${eff}`;
      const commitmentDue = addDays(receipt, terms.commitmentDays);
      const parts = [`Commitment ${commitmentDue} (${receiptWhy} + ${terms.commitmentDays} days, ${cite(para.commitment)})`];
      let latest = commitmentDue;
      if (surveyDue) {
        parts.push(`survey ${surveyDue} (${cite(para.survey)})`);
        if (surveyDue > latest) latest = surveyDue;
      }
      const byReceipt = addDays(latest, objectionDays);
      let date = byReceipt;
      let notes =
        `latest delivery deadline ${latest} [${parts.join('; ')}] + ${objectionDays} days (${cite(para.objection)}) = ${byReceipt}; ` +
        'assumes delivery on the deadline — recompute from actual receipt of the Commitment, Exception Documents and survey';
      if (closing && closing < byReceipt) {
        date = closing;
        notes += `; the Closing Date ${closing} is earlier and governs (${cite(para.objection)}(i))`;
      }
      keyDates.push(kd('TitleObjectionDeadline', date, 'Title objections due', notes));
    } else if (objectionDays !== null && !trec) {
      fromEffective('TitleObjectionDeadline', objectionDays, 'Title objections due', 'title review period');
    }
  }

  // FinancingDeadline — only from a financing addendum (or a date the form states).
  const finDays = fields.financingDeadlineDays.value;
  if (stated.has('FinancingDeadline')) {
    // Stated by the form (fromStated above).
  } else if (finDays !== null && eff) {
    const raw = addDays(eff, finDays);
    const { date, note } = weekendNote('FinancingDeadline', raw);
    keyDates.push(
      kd(
        'FinancingDeadline',
        date,
        'Financing approval deadline',
        `Effective Date ${eff} + ${finDays} days (${trec ? 'Third Party Financing Addendum ¶2A' : 'financing contingency'})${note}`,
      ),
    );
  } else if (finDays === null) {
    // TREC's financing addendum (TREC 40) is a separate form: checking it in ¶22 does not put its deadline here.
    const addendum = fields.addenda.value?.find((a) => /(Financing|Loan Assumption) Addendum$/.test(a));
    warnings.push(
      addendum
        ? `FinancingDeadline not set: the ${addendum} is a separate form; enter its financing approval deadline`
        : 'FinancingDeadline not set: no financing addendum gives one',
    );
  }

  return { keyDates, warnings };
}

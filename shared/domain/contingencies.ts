/**
 * A deal's open contingencies, derived from its applied contract (shared/db/applied-extractions.ts: financing
 * type, HOA addendum) and its key dates. Pure: the caller passes what it read and today's date.
 *
 * - `option_period` — TREC 20-18 ¶5B, the buyer's unrestricted right to terminate; deadline `InspectionDeadline`.
 * - `financing` — Third Party Financing Addendum (TREC 40) buyer approval; applies when the contract is not cash
 *   or the deal has a `FinancingDeadline`; deadline `FinancingDeadline` (none until entered: the addendum is a
 *   separate form).
 * - `appraisal` — the lender's property approval (appraisal) under the same addendum; deadline `AppraisalDeadline`
 *   when the deal has one, else the financing deadline.
 * - `title_survey` — TREC 20-18 ¶6C/¶6D, objections to the title commitment and survey; deadline
 *   `TitleObjectionDeadline`, else `SurveyDeadline`.
 * - `hoa` — HOA addendum (TREC 36) right to terminate after receiving the subdivision information; applies
 *   when the contract has an HOA or the deal has an `HoaDocumentsDeadline`; that key date is its deadline.
 *
 * A contingency whose deadline key date is marked complete is satisfied and not listed (open ones only).
 * State: `open` (deadline ahead), `due_today`, `past_deadline` (passed, not marked complete), `no_deadline`.
 */
import { daysBetween } from '#domain/calendar';
import type { AppliedContractFacts } from '#domain/documents';

export type ContingencyType = 'option_period' | 'financing' | 'appraisal' | 'title_survey' | 'hoa';
export type ContingencyState = 'open' | 'due_today' | 'past_deadline' | 'no_deadline';

export interface Contingency {
  type: ContingencyType;
  label: string;
  /** The key date that is its deadline, or null while none is set. */
  keyDateType: string | null;
  /** `YYYY-MM-DD` or null. */
  deadline: string | null;
  state: ContingencyState;
  /** Calendar days from today to the deadline (negative once passed), or null. */
  daysRemaining: number | null;
  /** Why it applies and where its deadline comes from. */
  basis: string;
}

/** The parts of a key date the rules read. */
export interface KeyDateView {
  keyDateType: string;
  dateValue: string;
  completedAt: string | null;
}

/**
 * The deal's open contingencies, soonest deadline first (those without a deadline last).
 * @param facts the latest applied contract's facts, or null when none was applied
 * @param today `YYYY-MM-DD`
 */
export function openContingencies(facts: AppliedContractFacts | null, keyDates: readonly KeyDateView[], today: string): Contingency[] {
  const kd = new Map(keyDates.map((k) => [k.keyDateType, k]));
  const out: Contingency[] = [];
  const add = (type: ContingencyType, label: string, deadlineTypes: string[], basis: string) => {
    const type0 = deadlineTypes.find((t) => kd.has(t));
    const k = type0 ? kd.get(type0)! : undefined;
    if (k?.completedAt) return; // satisfied
    const days = k ? daysBetween(today, k.dateValue) : null;
    const state: ContingencyState = days === null ? 'no_deadline' : days > 0 ? 'open' : days === 0 ? 'due_today' : 'past_deadline';
    out.push({ type, label, keyDateType: k?.keyDateType ?? null, deadline: k?.dateValue ?? null, state, daysRemaining: days, basis });
  };
  if (kd.has('InspectionDeadline')) add('option_period', 'Option period', ['InspectionDeadline'], 'TREC 20-18 ¶5B: termination option until the end of the option period (InspectionDeadline).');
  const financed = (facts?.financingType != null && facts.financingType !== 'cash') || kd.has('FinancingDeadline');
  if (financed) {
    add('financing', 'Financing (buyer approval)', ['FinancingDeadline'], `Third Party Financing Addendum: buyer approval by FinancingDeadline${facts?.financingType ? ` (contract financing: ${facts.financingType})` : ''}.`);
    add('appraisal', 'Appraisal (property approval)', ['AppraisalDeadline', 'FinancingDeadline'], "Lender's property approval (appraisal) under the financing addendum; AppraisalDeadline when set, else FinancingDeadline.");
  } else if (kd.has('AppraisalDeadline')) {
    add('appraisal', 'Appraisal', ['AppraisalDeadline'], 'AppraisalDeadline set on the deal.');
  }
  if (kd.has('TitleObjectionDeadline') || kd.has('SurveyDeadline')) {
    add('title_survey', 'Title and survey objections', ['TitleObjectionDeadline', 'SurveyDeadline'], 'TREC 20-18 ¶6C/¶6D: objections to the title commitment and survey; TitleObjectionDeadline when set, else SurveyDeadline.');
  }
  if (facts?.hoa === true || kd.has('HoaDocumentsDeadline')) {
    add('hoa', 'HOA subdivision information', ['HoaDocumentsDeadline'], 'HOA addendum (TREC 36): right to terminate after receiving the subdivision information; deadline HoaDocumentsDeadline when entered.');
  }
  return out.sort((a, b) => (a.deadline ?? '9999').localeCompare(b.deadline ?? '9999'));
}

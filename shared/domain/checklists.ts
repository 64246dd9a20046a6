/**
 * Checklist templates (spec "Templates and forms": filtered by `category`, `complexity`, `side`, `state`,
 * `transactionType`; the vocabularies are not shown, docs/design-choices.md says which this service uses) and the pure rules
 * of applying one to a deal: which items a `scope` selects, which the applied contract rules out, and each
 * task's due date from the key date it follows.
 *
 * The system templates are Texas (TREC 20-18 One to Four Family Residential Contract (Resale)) buyer-side and
 * seller-side checklists. Each item follows a key date the contract sets (shared/domain/extraction/key-dates.ts):
 * `InspectionDeadline` (end of the Option Period, ¶5B), `EarnestMoneyDue` / `OptionFeeDue` (¶5A),
 * `FinancingDeadline` (Third Party Financing Addendum), `SurveyDeadline` (¶6C), `TitleObjectionDeadline`
 * (¶6D) and `ClosingDate` (¶9A); a due date is that date plus `offsetDays` (negative = before).
 */
import { addDays } from '#domain/calendar';
import type { AppliedContractFacts } from '#domain/documents';

/** Sections of a checklist; `scope` names one or more of them. */
export const CHECKLIST_SECTIONS = ['earnest_money', 'option_period', 'financing', 'title_survey', 'hoa', 'closing'] as const;
export type ChecklistSection = (typeof CHECKLIST_SECTIONS)[number];

/** A line of a template: the task it becomes. */
export interface ChecklistItem {
  /** Stable within the template (e.g. `order-survey`); re-applying skips keys the deal already has. */
  key: string;
  section: ChecklistSection;
  title: string;
  description: string;
  /** Key-date type the task follows. */
  linkedKeyDate: string;
  /** Days from the key date (negative = before it). */
  offsetDays: number;
  /** 0 (low) – 5 (high), as the task API. */
  priority: number;
  /** Only where the applied contract has (or may have) this: `financed` (not cash), `hoa` (HOA addendum). */
  onlyIf?: 'financed' | 'hoa';
}

/** A checklist template as `GET /checklist-templates` lists it. */
export interface ChecklistTemplate {
  id: string;
  name: string;
  description: string;
  /** `resale` for these; the vocabulary is open. */
  category: string;
  /** US state, two letters. */
  state: string;
  side: 'Buyer' | 'Seller';
  /** Deal types it fits (spec: `Sale`, `Purchase`, `Listing`). */
  transactionTypes: ('Sale' | 'Purchase' | 'Listing')[];
  /** `simple` (cash, few parties), `standard`, `complex`. */
  complexity: 'simple' | 'standard' | 'complex';
  /** Form the key dates come from. */
  form: string;
  isActive: boolean;
  /** Shipped with the service (every template is, today). */
  isSystem: true;
  items: ChecklistItem[];
}

const item = (key: string, section: ChecklistSection, title: string, linkedKeyDate: string, offsetDays: number, priority: number, description: string, onlyIf?: ChecklistItem['onlyIf']): ChecklistItem => ({
  key,
  section,
  title,
  description,
  linkedKeyDate,
  offsetDays,
  priority,
  ...(onlyIf ? { onlyIf } : {}),
});

const BUYER_ITEMS: ChecklistItem[] = [
  item('deliver-earnest-money', 'earnest_money', 'Confirm earnest money delivered to escrow', 'EarnestMoneyDue', 0, 5, 'TREC 20-18 ¶5A: earnest money is due to the escrow agent within the days stated after the Effective Date; get the title company\'s receipt.'),
  item('deliver-option-fee', 'earnest_money', 'Confirm option fee delivered', 'OptionFeeDue', 0, 5, 'TREC 20-18 ¶5A/¶5B: without the Option Fee delivered on time the buyer has no termination option.'),
  item('schedule-inspection', 'option_period', 'Schedule inspections', 'InspectionDeadline', -6, 4, 'Book the general (and any specialist) inspection early enough to negotiate repairs within the option period.'),
  item('inspection-report', 'option_period', 'Review inspection report and repair requests with the buyer', 'InspectionDeadline', -2, 4, 'Decide on an amendment (TREC 39) for repairs or price, or termination, before the option period ends.'),
  item('option-decision', 'option_period', 'Option period ends: amendment signed or termination notice sent', 'InspectionDeadline', 0, 5, 'TREC 20-18 ¶5B: notice must be given by 5:00 p.m. local time on the last day; no extension for weekends.'),
  item('loan-application', 'financing', 'Confirm loan application and lender intent to proceed', 'FinancingDeadline', -14, 4, 'Third Party Financing Addendum (TREC 40): buyer applies promptly and works diligently toward approval.', 'financed'),
  item('order-appraisal', 'financing', 'Confirm appraisal ordered', 'FinancingDeadline', -10, 4, 'The lender\'s property approval (appraisal) falls under the financing addendum.', 'financed'),
  item('appraisal-received', 'financing', 'Appraisal received and reviewed', 'FinancingDeadline', -3, 4, 'A low appraisal may need renegotiation before the financing deadline.', 'financed'),
  item('financing-approval', 'financing', 'Buyer approval obtained or termination notice sent', 'FinancingDeadline', 0, 5, 'Third Party Financing Addendum: without notice by the deadline, buyer approval is deemed obtained.', 'financed'),
  item('order-survey', 'title_survey', 'Order or obtain the survey', 'SurveyDeadline', -5, 3, 'TREC 20-18 ¶6C: existing survey with T-47 affidavit, or a new survey, within the days stated.'),
  item('review-title-commitment', 'title_survey', 'Review title commitment, exception documents and survey', 'TitleObjectionDeadline', -2, 4, 'TREC 20-18 ¶6D: buyer may object in writing to defects within the days stated after receiving them.'),
  item('title-objections', 'title_survey', 'Send title/survey objections (if any)', 'TitleObjectionDeadline', 0, 4, 'Objections not made on time are waived (TREC 20-18 ¶6D).'),
  item('hoa-documents', 'hoa', 'Request HOA subdivision information', 'InspectionDeadline', -3, 3, 'HOA addendum (TREC 36): the buyer may terminate within the stated days after receiving the subdivision information.', 'hoa'),
  item('hoa-resale-certificate', 'hoa', 'HOA resale certificate and transfer fees to the title company', 'ClosingDate', -10, 3, 'The title company needs the resale certificate and fee statement to prepare the closing disclosure.', 'hoa'),
  item('final-walkthrough', 'closing', 'Schedule the final walk-through', 'ClosingDate', -2, 3, 'Check that agreed repairs were made and the property is in the condition the contract requires.'),
  item('closing-disclosure', 'closing', 'Closing disclosure reviewed with the buyer', 'ClosingDate', -3, 4, 'The lender delivers the closing disclosure at least three business days before consummation.', 'financed'),
  item('wire-instructions', 'closing', 'Verify wire instructions by phone with the title company', 'ClosingDate', -2, 5, 'Wire fraud: confirm the instructions by a known phone number, never from an email alone.'),
  item('closing', 'closing', 'Closing: sign, fund and deliver keys', 'ClosingDate', 0, 5, 'TREC 20-18 ¶9A: closing on or before the Closing Date.'),
];

const SELLER_ITEMS: ChecklistItem[] = [
  item('earnest-money-receipt', 'earnest_money', 'Confirm buyer delivered earnest money (title receipt)', 'EarnestMoneyDue', 0, 5, 'TREC 20-18 ¶5A: if the buyer fails to deliver earnest money on time, the seller may terminate or exercise remedies.'),
  item('option-fee-receipt', 'earnest_money', 'Confirm option fee received', 'OptionFeeDue', 0, 4, 'TREC 20-18 ¶5B: the option exists only if the fee is delivered on time.'),
  item('access-for-inspections', 'option_period', 'Arrange access for the buyer\'s inspections', 'InspectionDeadline', -6, 3, 'TREC 20-18 ¶7A: seller permits access for inspections and the appraisal.'),
  item('repair-requests', 'option_period', 'Respond to repair or price amendment requests', 'InspectionDeadline', -1, 4, 'Any agreed amendment (TREC 39) must be signed before the option period ends to bind the buyer.'),
  item('option-period-ends', 'option_period', 'Option period ends: confirm buyer did not terminate', 'InspectionDeadline', 0, 5, 'TREC 20-18 ¶5B: after 5:00 p.m. on the last day the buyer can no longer terminate under the option.'),
  item('appraisal-access', 'financing', 'Provide access for the appraisal', 'FinancingDeadline', -10, 3, 'The buyer\'s lender orders the appraisal; keep the listing accessible.', 'financed'),
  item('financing-status', 'financing', 'Confirm buyer\'s financing approval with the lender', 'FinancingDeadline', 0, 4, 'Third Party Financing Addendum: after the deadline without notice, buyer approval is deemed obtained.', 'financed'),
  item('deliver-survey', 'title_survey', 'Deliver existing survey and T-47 affidavit', 'SurveyDeadline', -3, 4, 'TREC 20-18 ¶6C(1): seller furnishes the existing survey and affidavit within the days stated.'),
  item('title-commitment', 'title_survey', 'Title commitment issued; clear any objections', 'TitleObjectionDeadline', 0, 4, 'TREC 20-18 ¶6D: seller may cure objections within 15 days after receiving them.'),
  item('hoa-subdivision-info', 'hoa', 'Order HOA subdivision information / resale certificate', 'InspectionDeadline', -3, 4, 'HOA addendum (TREC 36): seller delivers the subdivision information within the days stated.', 'hoa'),
  item('hoa-payoff', 'hoa', 'HOA dues and transfer fees statement to the title company', 'ClosingDate', -10, 3, 'The title company collects dues and fees at closing.', 'hoa'),
  item('payoff-statement', 'closing', 'Request mortgage payoff statement', 'ClosingDate', -10, 4, 'The title company needs every lien\'s payoff to prepare the settlement statement.'),
  item('seller-docs', 'closing', 'Review the seller\'s settlement statement', 'ClosingDate', -2, 4, 'Check commissions, prorations and payoffs.'),
  item('utilities-keys', 'closing', 'Arrange keys, codes and utility transfers', 'ClosingDate', -1, 2, 'Deliver possession as TREC 20-18 ¶10 provides.'),
  item('closing', 'closing', 'Closing: sign deed and deliver possession', 'ClosingDate', 0, 5, 'TREC 20-18 ¶9A: closing on or before the Closing Date.'),
];

/** System templates (ids are fixed so clients may store them). */
export const SYSTEM_CHECKLIST_TEMPLATES: readonly ChecklistTemplate[] = [
  {
    id: '5f0c8a52-3c1e-4f43-9a55-7d1a0b2c1a01',
    name: 'Texas resale — buyer side (TREC 20-18)',
    description: 'Buyer-side checklist for a Texas resale under TREC 20-18: earnest money, option period, financing and appraisal, title and survey, HOA, closing.',
    category: 'resale',
    state: 'TX',
    side: 'Buyer',
    transactionTypes: ['Purchase'],
    complexity: 'standard',
    form: 'TREC 20-18',
    isActive: true,
    isSystem: true,
    items: BUYER_ITEMS,
  },
  {
    id: '5f0c8a52-3c1e-4f43-9a55-7d1a0b2c1a02',
    name: 'Texas resale — seller side (TREC 20-18)',
    description: 'Seller-side checklist for a Texas resale under TREC 20-18: earnest money receipt, option period, buyer financing, survey and title, HOA, closing.',
    category: 'resale',
    state: 'TX',
    side: 'Seller',
    transactionTypes: ['Sale', 'Listing'],
    complexity: 'standard',
    form: 'TREC 20-18',
    isActive: true,
    isSystem: true,
    items: SELLER_ITEMS,
  },
  {
    id: '5f0c8a52-3c1e-4f43-9a55-7d1a0b2c1a03',
    name: 'Texas resale — buyer side, cash (TREC 20-18)',
    description: 'Shorter buyer-side checklist for a cash Texas resale: no financing or appraisal items.',
    category: 'resale',
    state: 'TX',
    side: 'Buyer',
    transactionTypes: ['Purchase'],
    complexity: 'simple',
    form: 'TREC 20-18',
    isActive: true,
    isSystem: true,
    items: BUYER_ITEMS.filter((i) => i.onlyIf !== 'financed'),
  },
  {
    id: '5f0c8a52-3c1e-4f43-9a55-7d1a0b2c1a04',
    name: 'Texas resale — buyer side (TREC 20-17, retired)',
    description: 'The checklist of the previous contract edition, kept for deals signed on it; inactive.',
    category: 'resale',
    state: 'TX',
    side: 'Buyer',
    transactionTypes: ['Purchase'],
    complexity: 'standard',
    form: 'TREC 20-17',
    isActive: false,
    isSystem: true,
    items: BUYER_ITEMS,
  },
];

/** Filters of `GET /checklist-templates` (all optional; text matches ignore case). */
export interface ChecklistTemplateFilter {
  activeOnly?: boolean;
  category?: string;
  complexity?: string;
  side?: string;
  /** Two-letter code or full name (`TX`, `Texas`). */
  state?: string;
  transactionType?: string;
}

const STATE_NAMES: Record<string, string> = { texas: 'TX' };
const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Templates matching every given filter, active ones first then by name. `activeOnly` defaults to true. */
export function filterChecklistTemplates(templates: readonly ChecklistTemplate[], f: ChecklistTemplateFilter): ChecklistTemplate[] {
  const state = f.state ? (STATE_NAMES[f.state.trim().toLowerCase()] ?? f.state) : undefined;
  return templates
    .filter((t) => (f.activeOnly ?? true ? t.isActive : true))
    .filter((t) => !f.category || same(t.category, f.category))
    .filter((t) => !f.complexity || same(t.complexity, f.complexity))
    .filter((t) => !f.side || same(t.side, f.side))
    .filter((t) => !state || same(t.state, state))
    .filter((t) => !f.transactionType || t.transactionTypes.some((x) => same(x, f.transactionType!)))
    .sort((a, b) => Number(b.isActive) - Number(a.isActive) || a.name.localeCompare(b.name));
}

/**
 * The sections a `scope` names: null, empty or `all` → every section; else a comma-separated list of
 * {@link CHECKLIST_SECTIONS}.
 * @returns the sections, or an error message naming the unknown ones
 */
export function parseScope(scope: string | null | undefined): { sections: ChecklistSection[] } | { error: string } {
  const parts = (scope ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (!parts.length || (parts.length === 1 && parts[0] === 'all')) return { sections: [...CHECKLIST_SECTIONS] };
  const unknown = parts.filter((p) => !(CHECKLIST_SECTIONS as readonly string[]).includes(p));
  if (unknown.length) return { error: `unknown section ${unknown.map((u) => `'${u}'`).join(', ')}; use all or a comma-separated list of ${CHECKLIST_SECTIONS.join(', ')}` };
  return { sections: [...new Set(parts)] as ChecklistSection[] };
}

/** Why an item of the template was not made a task. */
export interface SkippedItem {
  key: string;
  title: string;
  reason: 'out_of_scope' | 'not_in_contract' | 'already_on_deal';
}

/**
 * Items of `template` to create on a deal: in `sections`, allowed by the applied contract (`financed` items
 * skipped for a cash contract, `hoa` items when the contract has no HOA addendum; kept when no contract was
 * applied or it did not say), and not already on the deal (`existingKeys`).
 */
export function selectItems(template: ChecklistTemplate, sections: ChecklistSection[], facts: AppliedContractFacts | null, existingKeys: ReadonlySet<string>): { items: ChecklistItem[]; skipped: SkippedItem[] } {
  const items: ChecklistItem[] = [];
  const skipped: SkippedItem[] = [];
  for (const i of template.items) {
    const skip = (reason: SkippedItem['reason']) => skipped.push({ key: i.key, title: i.title, reason });
    if (!sections.includes(i.section)) skip('out_of_scope');
    else if (i.onlyIf === 'financed' && facts?.financingType === 'cash') skip('not_in_contract');
    else if (i.onlyIf === 'hoa' && facts?.hoa === false) skip('not_in_contract');
    else if (existingKeys.has(i.key)) skip('already_on_deal');
    else items.push(i);
  }
  return { items, skipped };
}

/** A task's due date: the key date + offset, or null while the deal lacks that key date (it is set when the date is). */
export const dueDateOf = (i: Pick<ChecklistItem, 'linkedKeyDate' | 'offsetDays'>, keyDates: ReadonlyMap<string, string>): string | null => {
  const d = keyDates.get(i.linkedKeyDate);
  return d ? addDays(d, i.offsetDays) : null;
};

/** Aggregate state of a checklist: nothing applied, none done, some done, all done. */
export type ChecklistStatus = 'none' | 'not_started' | 'in_progress' | 'complete';

/** The status for `completed` of `total` items. */
export const checklistStatus = (total: number, completed: number): ChecklistStatus => (total === 0 ? 'none' : completed === 0 ? 'not_started' : completed === total ? 'complete' : 'in_progress');

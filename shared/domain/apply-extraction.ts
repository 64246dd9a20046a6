/**
 * Rules of applying an extraction result to a deal (`POST /api/v1/transactions`), without I/O: validating
 * caller overrides per contract field, merging them over the extracted values, recomputing key dates when
 * an override changes one of their inputs, the parties to create with their roles, and the starter tasks
 * that follow key dates.
 */
import { addDays } from '#domain/calendar';
import { dict, own } from '#domain/dict';
import { calendarDateOf } from '#domain/iso-dates';
import { computeKeyDates } from '#domain/extraction/key-dates';
import type { ComputedKeyDate, ContractFieldName, ContractFields, ExtractedField, ExtractionResult, FinancingType } from '#domain/extraction/types';

/** How an override of each contract field is validated. */
type FieldKind = 'text' | 'state' | 'zip' | 'names' | 'money' | 'days' | 'date' | 'boolean' | 'financingType';

/** Every contract field with its kind (also the list of names `overrides` accepts). */
export const CONTRACT_FIELD_KINDS: Record<ContractFieldName, FieldKind> = {
  propertyStreet: 'text',
  propertyCity: 'text',
  propertyState: 'state',
  propertyZip: 'zip',
  county: 'text',
  legalDescription: 'text',
  buyers: 'names',
  sellers: 'names',
  salesPriceCash: 'money',
  salesPriceFinanced: 'money',
  salesPriceTotal: 'money',
  financingType: 'financingType',
  earnestMoney: 'money',
  optionFee: 'money',
  optionPeriodDays: 'days',
  escrowAgent: 'text',
  effectiveDate: 'date',
  closingDate: 'date',
  surveyDays: 'days',
  titleObjectionDays: 'days',
  hoa: 'boolean',
  addenda: 'names',
  buyerAgent: 'text',
  buyerBrokerage: 'text',
  listingAgent: 'text',
  listingBrokerage: 'text',
  financingDeadlineDays: 'days',
};

const FINANCING_TYPES: FinancingType[] = ['cash', 'third_party', 'loan_assumption', 'seller_financing'];

/** Fields the key-date math reads (see shared/domain/extraction/key-dates.ts): overriding one recomputes the dates. */
export const KEY_DATE_INPUTS: ReadonlySet<ContractFieldName> = new Set<ContractFieldName>([
  'effectiveDate',
  'closingDate',
  'optionPeriodDays',
  'surveyDays',
  'titleObjectionDays',
  'financingDeadlineDays',
  'earnestMoney',
  'optionFee',
]);

/** Validates one override value. @returns the normalized value, or an error message */
function parseValue(kind: FieldKind, v: unknown): { value: unknown } | { error: string } {
  if (v === null) return { value: null };
  switch (kind) {
    case 'text': {
      if (typeof v !== 'string' || !v.trim()) return { error: 'must be a non-empty string or null' };
      if (v.length > 500) return { error: 'must be at most 500 characters' };
      return { value: v.trim() };
    }
    case 'state':
      if (typeof v !== 'string' || !/^[A-Za-z]{2}$/.test(v.trim())) return { error: 'must be a two-letter state code (e.g. TX) or null' };
      return { value: v.trim().toUpperCase() };
    case 'zip':
      if (typeof v !== 'string' || !/^\d{5}(-\d{4})?$/.test(v.trim())) return { error: 'must be a ZIP code (12345 or 12345-6789) or null' };
      return { value: v.trim() };
    case 'names': {
      if (!Array.isArray(v) || v.length > 10 || v.some((n) => typeof n !== 'string' || !n.trim() || n.length > 200)) {
        return { error: 'must be an array of at most 10 non-empty strings, or null' };
      }
      return { value: v.map((n: string) => n.trim()) };
    }
    case 'money':
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1e10) return { error: 'must be an amount in dollars (a number ≥ 0) or null' };
      if (Math.round(v * 100) / 100 !== v) return { error: 'must have at most two decimal places (cents)' };
      return { value: v };
    case 'days':
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 365) return { error: 'must be a whole number of days from 0 to 365, or null' };
      return { value: v };
    case 'date': {
      const date = typeof v === 'string' ? calendarDateOf(v) : undefined;
      if (!date) return { error: 'must be a calendar date YYYY-MM-DD or null' };
      return { value: date };
    }
    case 'boolean':
      if (typeof v !== 'boolean') return { error: 'must be true, false or null' };
      return { value: v };
    case 'financingType':
      if (typeof v !== 'string' || !FINANCING_TYPES.includes(v as FinancingType)) return { error: `must be one of ${FINANCING_TYPES.join(', ')}, or null` };
      return { value: v };
  }
}

/**
 * Validates `overrides` (contract field name → value; null clears a field). Names are looked up as own keys
 * only, so `constructor`, `toString` or `__proto__` are "not a contract field", never a crash or a stored field.
 * @returns the normalized values (a prototype-less object) and, per bad entry, `overrides.<name>` → message
 *   (empty when valid)
 */
export function parseOverrides(raw: Record<string, unknown> | null | undefined): { values: Partial<Record<ContractFieldName, unknown>>; errors: Record<string, string> } {
  const values: Partial<Record<ContractFieldName, unknown>> = dict();
  const errors = dict<string>();
  for (const [name, v] of Object.entries(raw ?? {})) {
    const kind = own(CONTRACT_FIELD_KINDS, name);
    if (!kind) {
      errors[`overrides.${name}`] = 'is not a contract field';
      continue;
    }
    const r = parseValue(kind, v);
    if ('error' in r) errors[`overrides.${name}`] = r.error;
    else values[name as ContractFieldName] = r.value;
  }
  return { values, errors };
}

/** The fields with overrides applied: an overridden field has confidence 1, no citations, and a warning saying so. */
export function applyOverrides(fields: ContractFields, values: Partial<Record<ContractFieldName, unknown>>): ContractFields {
  const out = { ...fields } as Record<ContractFieldName, ExtractedField<unknown>>;
  for (const [name, value] of Object.entries(values) as [ContractFieldName, unknown][]) {
    out[name] = { value, confidence: 1, citations: [], warnings: ['overridden when applied'] };
  }
  return out as unknown as ContractFields;
}

/**
 * The key dates to write: the result's own when no override touches a key-date input; otherwise
 * recomputed from the merged fields (`computeKeyDates` with the terms the extractor read from the document,
 * kept on the result; a result stored before terms were kept gets the form's standard terms).
 */
export function keyDatesAfterOverrides(result: ExtractionResult, fields: ContractFields, overridden: ContractFieldName[]): ComputedKeyDate[] {
  if (!overridden.some((n) => KEY_DATE_INPUTS.has(n))) return result.keyDates;
  return computeKeyDates(fields, result.formType, result.terms).keyDates;
}

/** A deal's property address from the fields; undefined without a street. */
export function propertyAddressOf(fields: ContractFields) {
  const street = fields.propertyStreet.value?.trim();
  if (!street) return undefined;
  return { street, city: fields.propertyCity.value ?? null, state: fields.propertyState.value ?? null, zip: fields.propertyZip.value ?? null };
}

/** A party to create and link with a role. */
export interface PlannedContact {
  type: 'person' | 'company';
  name: string;
  company: string | null;
  role: string;
  isPrimary: boolean;
}

/**
 * The parties named by the contract, with their roles: each buyer (`Buyer`, the first primary), each seller
 * (`Seller`), the buyer's agent (`Buyer's Agent`, company = buyer's brokerage), the listing agent
 * (`Listing Agent`, company = listing brokerage), and the escrow agent / title company (`Escrow Officer /
 * Title`, a company). Names repeated within a role are listed once.
 */
export function plannedContacts(fields: ContractFields): PlannedContact[] {
  const out: PlannedContact[] = [];
  const seen = new Set<string>();
  const add = (c: PlannedContact) => {
    const k = `${c.role}|${c.name.toLowerCase()}`;
    if (seen.has(k)) return;
    seen.add(k);
    out.push(c);
  };
  (fields.buyers.value ?? []).forEach((name, i) => add({ type: 'person', name, company: null, role: 'Buyer', isPrimary: i === 0 }));
  (fields.sellers.value ?? []).forEach((name, i) => add({ type: 'person', name, company: null, role: 'Seller', isPrimary: i === 0 }));
  if (fields.buyerAgent.value) add({ type: 'person', name: fields.buyerAgent.value, company: fields.buyerBrokerage.value ?? null, role: "Buyer's Agent", isPrimary: true });
  if (fields.listingAgent.value) add({ type: 'person', name: fields.listingAgent.value, company: fields.listingBrokerage.value ?? null, role: 'Listing Agent', isPrimary: true });
  if (fields.escrowAgent.value) add({ type: 'company', name: fields.escrowAgent.value, company: fields.escrowAgent.value, role: 'Escrow Officer / Title', isPrimary: true });
  return out;
}

/** A task every applied contract starts with, due `offsetDays` from its key date. */
export interface StarterTask {
  title: string;
  linkedKeyDate: string;
  offsetDays: number;
  priority: number;
}

/** The starter tasks (each created only when the deal has its key date). */
export const STARTER_TASKS: StarterTask[] = [
  { title: 'Confirm earnest money and option fee receipted by escrow', linkedKeyDate: 'EarnestMoneyDue', offsetDays: 0, priority: 1 },
  { title: 'Schedule inspections before the option period ends', linkedKeyDate: 'InspectionDeadline', offsetDays: -2, priority: 1 },
  { title: 'Order survey or confirm existing survey', linkedKeyDate: 'SurveyDeadline', offsetDays: 0, priority: 2 },
  { title: 'Review title commitment and send objections', linkedKeyDate: 'TitleObjectionDeadline', offsetDays: 0, priority: 2 },
  { title: 'Confirm financing approval with the lender', linkedKeyDate: 'FinancingDeadline', offsetDays: -2, priority: 1 },
  { title: 'Confirm closing appointment with escrow', linkedKeyDate: 'ClosingDate', offsetDays: -2, priority: 1 },
];

/**
 * The starter tasks whose key date the deal has, with due dates.
 * @param keyDates keyDateType → `YYYY-MM-DD`
 */
export function plannedStarterTasks(keyDates: Record<string, string>): (StarterTask & { dueDate: string })[] {
  return STARTER_TASKS.filter((t) => keyDates[t.linkedKeyDate]).map((t) => ({ ...t, dueDate: addDays(keyDates[t.linkedKeyDate], t.offsetDays) }));
}

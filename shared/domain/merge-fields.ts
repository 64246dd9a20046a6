/**
 * Merge fields of a deal (spec "Templates and forms": `GET .../merge-fields`, `POST .../render-template`): the
 * values an email template may name, as dotted Handlebars paths, each a string or null when the deal has no value.
 *
 * - `property.*`: the property address (`address` one line, `street`, `city`, `state`, `zip`).
 * - `transaction.*`: `type`, `side`, `status`.
 * - `organization.name`.
 * - `client.*` and `parties.<role>.*`: a linked contact's `name`, `firstName`, `lastName`, `email`, `phone`,
 *   `company`. `<role>` is the role name in camelCase (`Buyer's Agent` → `buyersAgent`, `Escrow Officer / Title` →
 *   `escrowOfficerTitle`); the primary contact of the role, else the first linked. `client` is the party of the
 *   deal's side (Buyer or Seller).
 * - `keyDates.<keyDateType>`: the key date written out (`June 1, 2030`), e.g. `keyDates.ClosingDate`.
 * - `reminder.*`: only in a reminder's email (`deadlineType`, `deadlineLabel`, `deadlineDate`, `daysBefore`, `note`).
 *
 * A name of none of these forms is unknown; a name of one of them the deal has no value for is missing.
 */

/** A party field of each role. */
export const PARTY_ATTRIBUTES = ['name', 'firstName', 'lastName', 'email', 'phone', 'company'] as const;

/** The key-date types every deal lists among its merge fields (the spec's named types and the contract ones). */
export const NAMED_KEY_DATE_TYPES = ['ClosingDate', 'InspectionDeadline', 'FinancingDeadline', 'EarnestMoneyDue', 'OptionFeeDue', 'SurveyDeadline', 'TitleObjectionDeadline'];

/** The built-in roles every deal lists among its merge fields (shared/domain/contact-roles.ts). */
const LISTED_ROLES = ['Buyer', 'Seller', "Buyer's Agent", 'Listing Agent', 'Escrow Officer / Title'];

/** Fields that are not per role or per key date, with what they hold. */
export const FIXED_FIELDS: Record<string, string> = {
  'property.address': 'The property address on one line.',
  'property.street': 'The street address.',
  'property.city': 'The city.',
  'property.state': 'The state.',
  'property.zip': 'The ZIP code.',
  'transaction.type': 'Sale, Purchase or Listing.',
  'transaction.side': 'Buyer or Seller.',
  'transaction.status': "The deal's status.",
  'organization.name': 'The workspace name.',
};

/** Fields only a reminder's email has values for. */
export const REMINDER_FIELDS: Record<string, string> = {
  'reminder.deadlineType': 'The key-date type the reminder counts down to.',
  'reminder.deadlineLabel': 'That key date in words (its label, else its type spelled out).',
  'reminder.deadlineDate': 'The deadline written out.',
  'reminder.daysBefore': 'Days between the reminder and the deadline.',
  'reminder.note': "The reminder's note.",
};

const KEY_DATE_TOKEN = /^[A-Za-z][A-Za-z0-9_-]*$/;
const ROLE_KEY = /^[a-z][A-Za-z0-9]*$/;

/** A role name in camelCase for a merge-field path (`Buyer's Agent` → `buyersAgent`). */
export function roleFieldKey(role: string): string {
  const words = role.replace(/['’]/g, '').split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase())).join('');
}

/** A key-date type spelled out (`ClosingDate` → `Closing date`, `HOA_Docs_Due` → `HOA docs due`). */
export function keyDateWords(type: string): string {
  const words = type
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .split(/\s+/);
  return words.map((w, i) => (i === 0 || /^[A-Z0-9]{2,}$/.test(w) ? w : w.toLowerCase())).join(' ');
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A calendar date `YYYY-MM-DD` written out, `June 1, 2030` (no time zone: key dates are calendar dates). */
export function longDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}

/** What the merge fields are computed from: a deal and its organization (shapes of shared/db). */
export interface MergeSource {
  organizationName: string | null;
  deal: {
    propertyAddress: { street: string; city: string | null; state: string | null; zip: string | null };
    address: string;
    transactionType: string;
    side: 'Buyer' | 'Seller';
    status: string;
    keyDates: { keyDateType: string; dateValue: string }[];
    /** Linked contacts, primary first within a role. */
    contacts: { role: string; isPrimary: boolean; name: string; email: string | null; phone: string | null; company: string | null }[];
  };
  /** A reminder's own fields, when rendering its email. */
  reminder?: { deadlineType: string; deadlineLabel: string | null; deadlineDate: string; daysBefore: number; note: string | null };
}

/** One merge field with its value on a deal. */
export interface MergeField {
  name: string;
  description: string;
  /** The value as it renders, or null when the deal has none. */
  value: string | null;
}

function splitName(name: string): { first: string | null; last: string | null } {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (!parts.length) return { first: null, last: null };
  return { first: parts[0], last: parts.length > 1 ? parts[parts.length - 1] : null };
}

type Party = MergeSource['deal']['contacts'][number];

function partyFields(prefix: string, who: string, p: Party | undefined): MergeField[] {
  const { first, last } = p ? splitName(p.name) : { first: null, last: null };
  const values: Record<(typeof PARTY_ATTRIBUTES)[number], string | null> = {
    name: p?.name ?? null,
    firstName: first,
    lastName: last,
    email: p?.email ?? null,
    phone: p?.phone ?? null,
    company: p?.company ?? null,
  };
  return PARTY_ATTRIBUTES.map((a) => ({ name: `${prefix}.${a}`, description: `${who}: ${a === 'name' ? 'full name' : a}.`, value: values[a] || null }));
}

/**
 * The deal's merge fields with their values: the fixed ones, `client.*`, `parties.<role>.*` for the built-in roles
 * and every role linked on the deal, `keyDates.<type>` for the named types and every type on the deal, and
 * `reminder.*` (null outside a reminder).
 */
export function mergeFieldsOf(src: MergeSource): MergeField[] {
  const d = src.deal;
  const fixed: Record<string, string | null> = {
    'property.address': d.address,
    'property.street': d.propertyAddress.street,
    'property.city': d.propertyAddress.city,
    'property.state': d.propertyAddress.state,
    'property.zip': d.propertyAddress.zip,
    'transaction.type': d.transactionType,
    'transaction.side': d.side,
    'transaction.status': d.status,
    'organization.name': src.organizationName,
  };
  const fields: MergeField[] = Object.entries(FIXED_FIELDS).map(([name, description]) => ({ name, description, value: fixed[name] || null }));
  const first = (role: string) => d.contacts.find((c) => c.role === role && c.isPrimary) ?? d.contacts.find((c) => c.role === role);
  fields.push(...partyFields('client', `The client (the ${d.side.toLowerCase()})`, first(d.side)));
  const roles = [...new Set([...LISTED_ROLES, ...d.contacts.map((c) => c.role)])];
  const seen = new Set<string>();
  for (const role of roles) {
    const key = roleFieldKey(role);
    if (!key || !ROLE_KEY.test(key) || seen.has(key)) continue;
    seen.add(key);
    fields.push(...partyFields(`parties.${key}`, role, first(role)));
  }
  const dates = new Map(d.keyDates.map((k) => [k.keyDateType, k.dateValue]));
  for (const type of [...new Set([...NAMED_KEY_DATE_TYPES, ...dates.keys()])]) {
    const date = dates.get(type);
    fields.push({ name: `keyDates.${type}`, description: `${keyDateWords(type)}, written out.`, value: date ? longDate(date) : null });
  }
  const r = src.reminder;
  const reminder: Record<string, string | null> = {
    'reminder.deadlineType': r?.deadlineType ?? null,
    'reminder.deadlineLabel': r ? r.deadlineLabel || keyDateWords(r.deadlineType) : null,
    'reminder.deadlineDate': r ? longDate(r.deadlineDate) : null,
    'reminder.daysBefore': r ? String(r.daysBefore) : null,
    'reminder.note': r?.note || null,
  };
  fields.push(...Object.entries(REMINDER_FIELDS).map(([name, description]) => ({ name, description, value: reminder[name] })));
  return fields;
}

/**
 * True when `name` has the form of a merge field (whether or not a deal has a value for it): a fixed or reminder
 * field, `client.<attribute>`, `parties.<roleKey>.<attribute>` or `keyDates.<keyDateType>`.
 */
export function isMergeFieldName(name: string): boolean {
  if (Object.hasOwn(FIXED_FIELDS, name) || Object.hasOwn(REMINDER_FIELDS, name)) return true;
  const parts = name.split('.');
  const attr = (a: string | undefined) => (PARTY_ATTRIBUTES as readonly string[]).includes(a ?? '');
  if (parts[0] === 'client') return parts.length === 2 && attr(parts[1]);
  if (parts[0] === 'parties') return parts.length === 3 && ROLE_KEY.test(parts[1]) && attr(parts[2]);
  if (parts[0] === 'keyDates') return parts.length === 2 && KEY_DATE_TOKEN.test(parts[1]) && parts[1].length <= 64;
  return false;
}

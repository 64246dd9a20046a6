/**
 * The rules of a contact's own fields (designed here; the spec shows no contact fields): which are required, how
 * the display name is made, phone numbers stored in E.164, and the text a search matches.
 *
 * The phone parser (shared/domain/phone.ts, libphonenumber-js with its metadata, ~60 KB) is loaded with `import()`
 * only when a patch brings a new phone: the contacts API group ships it as a chunk beside its bundle
 * (lib/bundling/lazy-modules.ts), so reading, listing and searching contacts do not load it.
 */
import { InvalidInput } from '#domain/errors';
import { isEmailAddress } from '#domain/email-addresses';

/** A contact is a person or a company (e.g. the title company). */
export const CONTACT_TYPES = ['person', 'company'] as const;
export type ContactType = (typeof CONTACT_TYPES)[number];

/** A contact's stored fields (strings trimmed, empty ones null; `phone` in E.164). */
export interface ContactFields {
  type: ContactType;
  firstName: string | null;
  lastName: string | null;
  /** Display name: a person's full name, a company's name; else the email, else the phone. */
  name: string;
  email: string | null;
  phone: string | null;
  /** A person's company (e.g. the agent's brokerage); a company's own name. */
  company: string | null;
}

/** Fields as a request gives them: absent keeps the current value, null clears it. */
export type ContactPatch = { [K in keyof Omit<ContactFields, 'name'>]?: ContactFields[K] | null };

const clean = (v: string | null | undefined): string | null | undefined => (typeof v === 'string' ? v.trim() || null : v);

/**
 * A contact's fields after `patch` is applied to `current` (none for a new contact). The type, when not given (or
 * null), is `company` when only a company is named (no first or last name), else `person`. Async because a new
 * phone loads the phone parser.
 * @throws InvalidInput when a new email is not an address or a new phone not a valid number, or when none of firstName, lastName, company, email
 *   and phone is left (a contact needs something to be known by)
 */
export async function applyContactPatch(patch: ContactPatch, current?: ContactFields): Promise<ContactFields> {
  const pick = <K extends keyof ContactPatch>(k: K) => {
    const v = clean(patch[k] as string | null | undefined);
    return v === undefined ? (current?.[k] ?? null) : v;
  };
  const firstName = pick('firstName');
  const lastName = pick('lastName');
  const company = pick('company');
  const email = pick('email');
  if (email && email !== current?.email && !isEmailAddress(email)) throw new InvalidInput({ email: 'must be an email address' });
  let phone = pick('phone');
  if (phone && phone !== current?.phone) {
    const { normalizePhone } = await import('#domain/phone');
    phone = normalizePhone(phone) ?? null;
    if (!phone) throw new InvalidInput({ phone: 'is not a valid phone number (E.164, or a US number)' });
  }
  const derived: ContactType = !firstName && !lastName && company ? 'company' : 'person';
  const type = patch.type === undefined ? (current?.type ?? derived) : (patch.type ?? derived);
  const fullName = [firstName, lastName].filter(Boolean).join(' ') || null;
  const name = (type === 'company' ? (company ?? fullName) : (fullName ?? company)) ?? email ?? phone;
  if (!name) {
    const message = 'a contact needs at least one of firstName, lastName, company, email or phone';
    throw new InvalidInput({ firstName: message, lastName: message, company: message });
  }
  return { type, firstName, lastName, name, email, phone, company };
}

/** True when the two hold the same fields. */
export const sameContactFields = (a: ContactFields, b: ContactFields): boolean =>
  (Object.keys(a) as (keyof ContactFields)[]).every((k) => a[k] === b[k]);

/**
 * The lower-cased text a contact search matches: names, email, company, and the phone's digits (so `555-0147`,
 * `(512) 555-0147` and `+1 512 555 0147` all find `+15125550147`).
 */
export const contactSearchText = (c: Omit<ContactFields, 'type'>): string =>
  [c.name, c.firstName, c.lastName, c.email, c.company, c.phone?.replace(/\D/g, '')].filter(Boolean).join(' ').toLowerCase();

/**
 * The term to look for in `contactSearchText`: a query that looks like a phone number (digits and `+ ( ) . -` and
 * spaces, at least 3 digits) becomes its digits; any other query is trimmed and lower-cased.
 * @returns the term, or undefined for a blank query
 */
export function contactSearchTerm(q: string | undefined): string | undefined {
  const term = q?.trim().toLowerCase();
  if (!term) return undefined;
  const digits = term.replace(/\D/g, '');
  return /^[\d\s().+-]+$/.test(term) && digits.length >= 3 ? digits : term;
}

/**
 * Who a deal message goes to. A deal's parties are its contacts, each linked with one role (spec "Contact": roles
 * match exactly on the role name; an unrecognized role token reaches nobody). A recipient named by contact must be
 * linked to the deal; one named by address or number is matched to a linked contact when one has it, so the message
 * also shows in that contact's activity.
 */
import { getContact, type TransactionContact } from '#db/contacts';
import type { Party } from '#db/communications';
import type { Deal } from '#db/transactions';
import { InvalidInput, NotFound } from '#domain/errors';

/** A linked contact with its current channels (the contact's own record, else the link's snapshot). */
export interface DealRecipient {
  contactId: string;
  name: string;
  role: string;
  email: string | null;
  phone: string | null;
}

/**
 * The deal's contact `contactId`, optionally required to hold `role.value` exactly.
 * @param field the request field naming the contact, for the error
 * @throws InvalidInput when the contact is not linked to the deal, or is linked with another role (`role.field`)
 */
export async function linkedRecipient(orgId: string, deal: Deal, contactId: string, field: string, role?: { value: string; field: string }): Promise<DealRecipient> {
  // One contact may hold several roles on a deal (a dual agent): any of its links may carry the role asked for.
  const links = deal.contacts.filter((c) => c.contactId === contactId);
  if (!links.length) throw new InvalidInput({ [field]: 'is not a contact of this transaction' });
  const link = (role && links.find((l) => l.role === role.value)) || links[0];
  if (role && link.role !== role.value) {
    const anyone = deal.contacts.some((c) => c.role === role.value);
    throw new InvalidInput({
      [role.field]: anyone
        ? `does not match: this contact is linked as ${links.map((l) => `"${l.role}"`).join(', ')} (roles match exactly)`
        : `reaches nobody: no contact of this transaction has the role "${role.value}" (roles match exactly)`,
    });
  }
  const contact = await getContact(orgId, contactId).catch((err) => (err instanceof NotFound ? undefined : Promise.reject(err)));
  return { contactId, name: contact?.name ?? link.name, role: link.role, email: contact?.email ?? link.email, phone: contact?.phone ?? link.phone };
}

/** Addresses as parties, each matched (case-insensitively) to the deal contact that has it. */
export function partiesOf(deal: Deal, addresses: string[]): Party[] {
  return addresses.map((address) => {
    const c = deal.contacts.find((x) => x.email?.toLowerCase() === address.toLowerCase());
    return { address, name: c?.name ?? null, contactId: c?.contactId ?? null };
  });
}

/** The deal contact whose number is `e164`, if any (textable numbers only: `toE164`, loaded on first use). */
export async function contactWithPhone(deal: Deal, e164: string): Promise<TransactionContact | undefined> {
  const { toE164 } = await import('#domain/textable-phone');
  return deal.contacts.find((c) => c.phone && toE164(c.phone) === e164);
}

/** Where a text goes: a number as given, the field it came from, and the contact it belongs to (if known). */
export interface SmsRecipient {
  phone: string;
  phoneField: string;
  contactId: string | null;
  name: string | null;
}

/**
 * The recipient of a text named by `contactId` (a linked contact; `toPhoneNumber`, when also given, overrides its
 * number) or by `toPhoneNumber` alone.
 * @throws InvalidInput when neither is given, the contact is not linked, or it has no number
 */
export async function smsRecipient(orgId: string, deal: Deal, input: { contactId: string | null; toPhoneNumber: string | null }): Promise<SmsRecipient> {
  if (input.contactId) {
    const r = await linkedRecipient(orgId, deal, input.contactId, 'contactId');
    const phone = input.toPhoneNumber || r.phone;
    if (!phone) throw new InvalidInput({ contactId: 'has no phone number; give toPhoneNumber' });
    return { phone, phoneField: input.toPhoneNumber ? 'toPhoneNumber' : 'contactId', contactId: r.contactId, name: r.name };
  }
  if (!input.toPhoneNumber) throw new InvalidInput({ toPhoneNumber: 'is required: give contactId or toPhoneNumber' });
  const { toE164 } = await import('#domain/textable-phone');
  const e164 = toE164(input.toPhoneNumber);
  const c = e164 ? await contactWithPhone(deal, e164) : undefined;
  return { phone: input.toPhoneNumber, phoneField: 'toPhoneNumber', contactId: c?.contactId ?? null, name: c?.name ?? null };
}

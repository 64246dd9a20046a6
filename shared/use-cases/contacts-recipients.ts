/**
 * A deal's recipients (spec "Messaging": `GET .../recipients`): its participants, the contacts linked to it with
 * their roles, each with per-channel availability (shared/domain/channel-availability.ts). With a channel, the
 * participants reachable on it are the result and the others are reported apart with the reason.
 */
import { getDeal } from '#db/transactions';
import { findEmailSuppression, findSmsOptOut } from '#db/consent';
import type { ContactType, TransactionContact } from '#db/contacts';
import { emailAvailability, smsAvailability, textableNumbers, type ChannelAvailability, type ConsentState, type MessageChannel } from '#domain/channel-availability';

/** A participant of a deal. */
export interface Recipient {
  contactId: string;
  name: string;
  type: ContactType;
  company: string | null;
  /** Its roles on the deal in display order (one contact may hold several, e.g. a dual agent). */
  roles: { role: string; isPrimary: boolean }[];
  email: ChannelAvailability;
  sms: ChannelAvailability;
}

/** Participants reachable (all of them without a channel) and, with a channel, those not reachable on it. */
export interface Recipients {
  channel: MessageChannel | null;
  data: Recipient[];
  unreachable: Recipient[];
}

/** The suppressions and opt-outs of the given addresses (one consistent `GetItem` each, in parallel). */
async function consentOf(links: readonly TransactionContact[]): Promise<ConsentState> {
  const emails = [...new Set(links.map((l) => l.email?.toLowerCase()).filter((e): e is string => Boolean(e)))];
  const phones = await textableNumbers(links.map((l) => l.phone));
  const [suppressed, optedOut] = await Promise.all([
    Promise.all(emails.map(async (e) => ((await findEmailSuppression(e)) ? e : undefined))),
    Promise.all(phones.map(async (p) => ((await findSmsOptOut(p)) ? p : undefined))),
  ]);
  const present = (xs: (string | undefined)[]) => new Set(xs.filter((x): x is string => x !== undefined));
  return { suppressedEmails: present(suppressed), optedOutPhones: present(optedOut) };
}

/**
 * The deal's participants, one per contact in the deal's display order (by role, primary first), with the roles
 * it holds and whether email and SMS can reach it.
 * @param channel when given, `data` holds the participants available on it and `unreachable` the others
 * @throws NotFound for a deal that is absent or another organization's
 */
export async function listDealRecipients(orgId: string, transactionId: string, channel?: MessageChannel): Promise<Recipients> {
  const { contacts: links } = await getDeal(orgId, transactionId);
  const consent = await consentOf(links);
  const byContact = new Map<string, Recipient>();
  for (const l of links) {
    const known = byContact.get(l.contactId);
    if (known) known.roles.push({ role: l.role, isPrimary: l.isPrimary });
    else {
      byContact.set(l.contactId, {
        contactId: l.contactId,
        name: l.name,
        type: l.type,
        company: l.company,
        roles: [{ role: l.role, isPrimary: l.isPrimary }],
        email: emailAvailability(l.email, consent),
        sms: await smsAvailability(l.phone, consent),
      });
    }
  }
  const all = [...byContact.values()];
  if (!channel) return { channel: null, data: all, unreachable: [] };
  return { channel, data: all.filter((r) => r[channel].available), unreachable: all.filter((r) => !r[channel].available) };
}

/**
 * Linking an existing contact to a deal with a role (spec "Transactions": `POST .../{transactionId}/contacts`).
 * Roles match exactly on the name (built-in or the organization's custom roles). One link per contact and role:
 * linking the same contact with the same role again changes nothing (unless `isPrimary` asks for a change); the same
 * contact with another role is a second link (a dual agent). `isPrimary` makes it its role's primary on the deal,
 * unsetting the previous one.
 */
import { contactLinkPlan, type LinkPlan } from '#domain/contact-links';
import { contactVersionCheck, getVersionedContact, linkCreatePut, linkPrimaryUpdate, listDealContacts, type TransactionContact } from '#db/contacts';
import { getTransactionHead, touchTransaction } from '#db/transactions';
import { activityPut } from '#db/activity';
import { transactWrite, type TransactItem } from '#db/transact';
import type { Actor } from '#events/outbox';
import { Conflict, InvalidInput } from '#domain/errors';
import { retryStale, StaleRead } from '#use-cases/optimistic';
import { resolveContactRole } from '#use-cases/contacts-roles';

/** The link request; the spec types every field nullable, but `contactId` and `role` are required in practice. */
export interface LinkRequest {
  contactId?: string | null;
  role?: string | null;
  /** True: make it the role's primary; false: not primary; null/absent: keep (a new link is primary when it is its role's first). */
  isPrimary?: boolean | null;
}

/**
 * Links the contact to the deal with the role. The writes (link, primaries, activity entry) commit with the deal's
 * touch on condition that neither the deal nor the contact changed since they were read (else read again).
 * @returns the link as it now is, and whether anything changed
 * @throws InvalidInput when `contactId` or `role` is missing, or the role is not one of the organization's (listed)
 * @throws NotFound for a deal or contact that is absent or another organization's
 * @throws Conflict when the deal kept changing
 */
export async function linkContactToDeal(actor: Actor, transactionId: string, req: LinkRequest, now: Date): Promise<{ link: TransactionContact; changed: boolean }> {
  const { contactId, role: requested } = req;
  if (!contactId || !requested) {
    throw new InvalidInput({ ...(contactId ? {} : { contactId: 'is required' }), ...(requested ? {} : { role: 'is required' }) });
  }
  let role: string | undefined;
  return retryStale(async () => {
    const deal = await getTransactionHead(actor.orgId, transactionId);
    const { contact, version } = await getVersionedContact(actor.orgId, contactId);
    // Checked after the deal and the contact: an unknown id is a 404 whatever the role.
    role ??= await resolveContactRole(actor.orgId, requested);
    const plan = contactLinkPlan(await listDealContacts(actor.orgId, transactionId), { contactId, role, isPrimary: req.isPrimary ?? null });
    if (!plan.changed) return { link: plan.existing!, changed: false };

    const link: TransactionContact = plan.existing
      ? { ...plan.existing, isPrimary: plan.isPrimary }
      : { transactionId, contactId, role, isPrimary: plan.isPrimary, linkedAt: now.toISOString(), type: contact.type, name: contact.name, email: contact.email, phone: contact.phone, company: contact.company };
    const items: TransactItem[] = [
      touchTransaction(actor.orgId, deal, now, { expectedVersion: deal.version }),
      ...(plan.existing
        ? [linkPrimaryUpdate(actor.orgId, plan.existing, plan.isPrimary)]
        : [linkCreatePut(actor.orgId, link, contact, version), contactVersionCheck(actor.orgId, contactId, version)]),
      ...plan.demote.map((l) => linkPrimaryUpdate(actor.orgId, l, false)),
      activityPut(actor.orgId, { transactionId, type: 'contact_linked', summary: summaryOf(plan, contact.name, role), details: null, userId: actor.userId }, now).put,
    ];
    await transactWrite(items, () => new StaleRead());
    return { link, changed: true };
  }, () => new Conflict('The transaction kept changing while the contact was linked; retry.'));
}

const summaryOf = (plan: LinkPlan<TransactionContact>, name: string, role: string): string =>
  plan.existing ? `${name} ${plan.isPrimary ? 'made' : 'no longer'} primary ${role}` : `${name} linked as ${plan.isPrimary ? 'primary ' : ''}${role}`;

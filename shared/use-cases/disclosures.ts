/**
 * Disclosure packages (spec "Disclosure packages"; states: activate and revoke are idempotent). A package lists
 * uploaded documents of the organization (of its deal, when it names one); each invited recipient gets an email with
 * their own expiring link to `/d/{token}` (queued for the send worker with the recipient), a page listing the documents (downloadable when `allowDownloads`) that
 * records views and, when `requireAck`, the recipient's acknowledgement. Revoking a recipient ends their access at
 * once: the page reads the recipient on every request.
 */
import { randomUUID } from 'node:crypto';
import { findDocument } from '#db/documents';
import { getContact } from '#db/contacts';
import { findEmailSuppression } from '#db/consent';
import { getOrganization } from '#db/orgs';
import { getTransactionHead } from '#db/transactions';
import { newPageToken, pageLinkPut } from '#db/page-links';
import {
  addRecipient,
  createPackage,
  getPackageState,
  recordView,
  revokeRecipient,
  updatePackage,
  type DisclosurePackage,
  type DisclosureRecipient,
  type PackageState,
} from '#db/disclosures';
import { Conflict, InvalidInput, NotFound } from '#domain/errors';
import { isEmailAddress } from '#domain/email-addresses';
import { outboxPut } from '#db/outbox';
import type { Actor } from '#events/outbox';
import { queuedServiceEmailItems } from '#use-cases/messaging/queue-service-email';

/** Days a recipient's link works when neither the request nor the package says. */
export const DEFAULT_RECIPIENT_DAYS = 30;

/** Checks that every id is an uploaded document of the organization (and of `transactionId` when given). */
async function checkDocuments(orgId: string, ids: string[], transactionId: string | null): Promise<string[]> {
  const unique = [...new Set(ids)];
  for (const [i, id] of unique.entries()) {
    const doc = await findDocument(orgId, id);
    if (!doc) throw new InvalidInput({ [`documentIds[${i}]`]: 'is not a document of this organization' });
    if (transactionId && doc.transactionId !== transactionId) throw new InvalidInput({ [`documentIds[${i}]`]: "is not a document of the package's transaction" });
    if (doc.uploadState !== 'uploaded') throw new InvalidInput({ [`documentIds[${i}]`]: 'has no uploaded file yet' });
  }
  return unique;
}

const future = (iso: string | null | undefined, field: string, now: Date): string | null => {
  if (!iso) return null;
  const at = new Date(iso);
  if (at.getTime() <= now.getTime()) throw new InvalidInput({ [field]: 'must be in the future' });
  return at.toISOString();
};

/** What `POST /disclosure-packages` takes (all optional). */
export interface CreatePackageInput {
  name?: string | null;
  coverMessage?: string | null;
  transactionId?: string | null;
  documentIds?: string[] | null;
  expiresAt?: string | null;
  allowDownloads?: boolean | null;
  requireAck?: boolean | null;
}

/**
 * Creates a package. With at least one document it is active at once ("may attach documents and activate");
 * without, it is a draft to fill (`PUT .../documents`) and activate.
 * @throws InvalidInput for a deal, document or expiry that does not fit
 */
export async function createDisclosurePackage(actor: Actor, input: CreatePackageInput, now: Date): Promise<PackageState> {
  const transactionId = input.transactionId ?? null;
  if (transactionId) await getTransactionHead(actor.orgId, transactionId).catch((err) => Promise.reject(err instanceof NotFound ? new InvalidInput({ transactionId: 'is not a transaction of this organization' }) : err));
  const documentIds = await checkDocuments(actor.orgId, input.documentIds ?? [], transactionId);
  const at = now.toISOString();
  const active = documentIds.length > 0;
  const pkg: DisclosurePackage = {
    id: randomUUID(),
    name: input.name?.trim() || 'Disclosures',
    coverMessage: input.coverMessage?.trim() || null,
    transactionId,
    documentIds,
    expiresAt: future(input.expiresAt, 'expiresAt', now),
    allowDownloads: input.allowDownloads ?? true,
    requireAck: input.requireAck ?? false,
    status: active ? 'active' : 'draft',
    activatedAt: active ? at : null,
    createdAt: at,
    updatedAt: at,
    createdBy: actor.userId,
  };
  await createPackage(actor.orgId, pkg);
  return { pkg, recipients: [], activity: [] };
}

/**
 * Activates the package (idempotent: an active package stays as it is).
 * @throws NotFound for an unknown package; InvalidInput when it has no documents
 */
export async function activateDisclosurePackage(actor: Actor, packageId: string, now: Date): Promise<PackageState> {
  const state = await getPackageState(actor.orgId, packageId);
  if (state.pkg.status === 'active') return state;
  if (!state.pkg.documentIds.length) throw new InvalidInput({ packageId: 'has no documents; add some with PUT /documents first' });
  await updatePackage(actor.orgId, packageId, { status: 'active', activatedAt: now.toISOString() }, now, { status: 'draft' });
  return getPackageState(actor.orgId, packageId);
}

/** Replaces the package's documents (order kept). @throws NotFound, InvalidInput */
export async function replaceDisclosureDocuments(actor: Actor, packageId: string, ids: string[] | null, now: Date): Promise<PackageState> {
  const state = await getPackageState(actor.orgId, packageId);
  const documentIds = await checkDocuments(actor.orgId, ids ?? [], state.pkg.transactionId);
  if (!documentIds.length && state.pkg.status === 'active') throw new InvalidInput({ documentIds: 'must name at least one document while the package is active' });
  await updatePackage(actor.orgId, packageId, { documentIds }, now);
  return getPackageState(actor.orgId, packageId);
}

/** What `POST .../recipients` takes. */
export interface RecipientInput {
  email: string | null;
  contactId: string | null;
  displayLabel: string | null;
  audienceTier: string | null;
  expiresAt: string | null;
}

/**
 * Invites a recipient: stores them, their link and their share email (from the service's sender, the organization's
 * name as display name) queued for the send worker, in one transaction, and answers without waiting for the send.
 * The recipient's `emailStatus` is `queued`, then `sent`, `failed` or `unknown` (set by
 * shared/use-cases/messaging/deliver-service-email.ts); a failed share keeps the recipient, so the team sees it and
 * may revoke them and invite again. A retry of the call is answered by its Idempotency-Key, not by a second recipient.
 * @param baseUrl origin of the public pages
 * @throws NotFound for an unknown package; InvalidInput for the address, contact or expiry; Conflict when the
 *   package is not active (activate it first) or the address is suppressed (a bounce or complaint)
 */
export async function inviteDisclosureRecipient(actor: Actor, packageId: string, input: RecipientInput, baseUrl: string, now: Date): Promise<{ state: PackageState; recipient: DisclosureRecipient }> {
  const state = await getPackageState(actor.orgId, packageId);
  let email = input.email?.trim().toLowerCase() || null;
  if (input.contactId) {
    const contact = await getContact(actor.orgId, input.contactId).catch((err) => Promise.reject(err instanceof NotFound ? new InvalidInput({ contactId: 'is not a contact of this organization' }) : err));
    if (!email) email = contact.email?.toLowerCase() ?? null;
    if (!email) throw new InvalidInput({ contactId: 'has no email address; give email' });
  }
  if (!email) throw new InvalidInput({ email: 'is required (or contactId of a contact with an email address)' });
  if (!isEmailAddress(email)) throw new InvalidInput({ email: 'is not an email address' });
  // As for deal email: an address that bounced or complained is not emailed again (checked again before sending).
  const suppressed = await findEmailSuppression(email);
  if (suppressed) throw new Conflict(`${email} is suppressed after a ${suppressed.reason} on ${suppressed.suppressedAt.slice(0, 10)}; it is not emailed again.`);
  const requested = future(input.expiresAt, 'expiresAt', now);
  if (state.pkg.expiresAt && Date.parse(state.pkg.expiresAt) <= now.getTime()) throw new Conflict('The package has expired; create a new one.');
  if (state.pkg.status !== 'active') throw new Conflict('The package is a draft; activate it before inviting recipients.');
  const fallback = new Date(now.getTime() + DEFAULT_RECIPIENT_DAYS * 86_400_000).toISOString();
  const candidates = [requested ?? fallback, state.pkg.expiresAt].filter((x): x is string => !!x);
  const expiresAt = candidates.sort()[0]!;
  const recipient: DisclosureRecipient = {
    id: randomUUID(),
    packageId,
    email,
    displayLabel: input.displayLabel?.trim() || null,
    audienceTier: input.audienceTier?.trim() || null,
    contactId: input.contactId,
    expiresAt,
    invitedAt: now.toISOString(),
    invitedBy: actor.userId,
    revokedAt: null,
    firstViewedAt: null,
    lastViewedAt: null,
    viewCount: 0,
    acknowledgedAt: null,
    emailStatus: 'queued',
    emailDetail: null,
  };
  const token = newPageToken();
  const org = await getOrganization(actor.orgId);
  const sender = org?.name ?? 'Your transaction team';
  const lines = [
    recipient.displayLabel ? `Hello ${recipient.displayLabel},` : 'Hello,',
    '',
    `${sender} shared "${state.pkg.name}" with you (${state.pkg.documentIds.length} document${state.pkg.documentIds.length === 1 ? '' : 's'}).`,
    ...(state.pkg.coverMessage ? ['', state.pkg.coverMessage] : []),
    '',
    `Open it here: ${baseUrl}/d/${token}`,
    `The link is yours alone and works until ${expiresAt.slice(0, 10)}.${state.pkg.requireAck ? ' Please acknowledge receipt on the page.' : ''}`,
  ];
  const share = queuedServiceEmailItems(actor, 'disclosure_share', { to: email, fromName: sender, subject: `${state.pkg.name}: documents shared with you`, text: lines.join('\n') }, { kind: 'disclosure_recipient', packageId, recipientId: recipient.id }, now);
  // The link is stored with the email, so the email never carries a dead link.
  const link = pageLinkPut(token, { kind: 'disclosure', packageId, recipientId: recipient.id, orgId: actor.orgId, expiresAt, createdAt: now.toISOString(), createdBy: actor.userId });
  await addRecipient(actor.orgId, recipient, now, [link, ...share.items]);
  return { state: await getPackageState(actor.orgId, packageId), recipient };
}

/**
 * Revokes a recipient's access (idempotent).
 * @throws NotFound for an unknown package or a recipient not of it
 */
export async function revokeDisclosureRecipient(actor: Actor, packageId: string, recipientId: string, now: Date) {
  await getPackageState(actor.orgId, packageId);
  const changed = await revokeRecipient(actor.orgId, packageId, recipientId, now);
  const state = await getPackageState(actor.orgId, packageId);
  return { recipient: state.recipients.find((r) => r.id === recipientId)!, alreadyRevoked: !changed };
}

/** A recipient's status: revoked, expired, acknowledged, viewed or invited (first that applies). */
export function recipientStatus(r: DisclosureRecipient, now: Date): 'revoked' | 'expired' | 'acknowledged' | 'viewed' | 'invited' {
  if (r.revokedAt) return 'revoked';
  if (Date.parse(r.expiresAt) <= now.getTime()) return 'expired';
  if (r.acknowledgedAt) return 'acknowledged';
  return r.firstViewedAt ? 'viewed' : 'invited';
}

/** The package as the API shows it: documents (id, name, type) and recipients with their status. */
export async function packageView(orgId: string, state: PackageState, now: Date) {
  const items = [];
  for (const [order, id] of state.pkg.documentIds.entries()) {
    const doc = await findDocument(orgId, id);
    items.push({ documentId: id, order, fileName: doc?.name ?? null, documentType: doc?.documentType ?? null, available: doc?.uploadState === 'uploaded' });
  }
  return { ...state.pkg, items, recipients: state.recipients.map((r) => ({ ...r, status: recipientStatus(r, now) })) };
}

/** The activity report: per recipient, what they viewed, downloaded and acknowledged, and the log, oldest first. */
export function activityView(state: PackageState, now: Date) {
  return {
    packageId: state.pkg.id,
    requireAck: state.pkg.requireAck,
    summary: {
      recipients: state.recipients.length,
      viewed: state.recipients.filter((r) => r.firstViewedAt).length,
      acknowledged: state.recipients.filter((r) => r.acknowledgedAt).length,
      revoked: state.recipients.filter((r) => r.revokedAt).length,
    },
    recipients: state.recipients.map((r) => ({
      recipientId: r.id,
      email: r.email,
      displayLabel: r.displayLabel,
      status: recipientStatus(r, now),
      invitedAt: r.invitedAt,
      firstViewedAt: r.firstViewedAt,
      lastViewedAt: r.lastViewedAt,
      viewCount: r.viewCount,
      acknowledgedAt: r.acknowledgedAt,
      revokedAt: r.revokedAt,
      downloads: state.activity.filter((a) => a.recipientId === r.id && a.action === 'downloaded').map((a) => ({ documentId: a.documentId!, at: a.at })),
    })),
    events: state.activity,
  };
}

/**
 * Records that recipient `r` opened the package's page (counted and logged); the first view emits
 * `disclosure.recipient_viewed` with it.
 */
export async function recordDisclosureView(orgId: string, pkg: DisclosurePackage, r: DisclosureRecipient, now: Date): Promise<void> {
  const event = outboxPut({ orgId, userId: null }, 'disclosure.recipient_viewed', { packageId: pkg.id, recipientId: r.id, transactionId: pkg.transactionId, email: r.email }, now);
  await recordView(orgId, pkg, r, now, [event]);
}

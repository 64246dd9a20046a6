/**
 * Notices about the workspace itself (deletion scheduled, export ready), to the owner from the service's own sender
 * (`MAIL_FROM_ADDRESS`). The account group queues its notice for the send worker in the transaction of the change
 * (`queuedWorkspaceNotice`); the export worker, a worker already, sends its notice directly (shared/use-cases/
 * service-mail.ts). Free of transports, so the account group bundles none.
 */
import { getOrganization, getUser } from '#db/orgs';
import type { TransactItem } from '#db/transact';
import { NotFound } from '#domain/errors';
import type { Actor } from '#events/outbox';
import { config } from '#ports/config';
import { queuedServiceEmailItems } from '#use-cases/messaging/queue-service-email';

/** The display name of workspace notices. */
export const WORKSPACE_NOTICE_SENDER = 'Transaction-Coordination Service';

/** The owner's address. @throws NotFound when the organization or its owner is gone */
export async function ownerAddress(orgId: string): Promise<{ email: string; workspaceName: string }> {
  const org = await getOrganization(orgId);
  const owner = org && (await getUser(orgId, org.ownerUserId));
  if (!org || !owner) throw new NotFound('Organization owner');
  return { email: owner.email, workspaceName: org.name };
}

/**
 * The writes that queue a plain-text notice to `to` in the service's own name, for the transaction of the change it
 * reports. A failed send is logged and counted by the send worker (`ServiceEmailsFailed`).
 */
export const queuedWorkspaceNotice = (actor: Actor, to: string, subject: string, text: string, now: Date): TransactItem[] =>
  queuedServiceEmailItems(actor, 'workspace_notice', { to, fromName: WORKSPACE_NOTICE_SENDER, subject, text }, null, now).items;

/** The API's public base URL (`PUBLIC_BASE_URL`, no trailing slash), or a placeholder when unset. */
export const publicBaseUrl = (): string => (config.publicBaseUrl ?? 'https://api.example.invalid').replace(/\/+$/, '');

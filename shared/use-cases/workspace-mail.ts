/**
 * Notices about the workspace itself (deletion scheduled, export ready), sent to the owner from the service's own
 * sender (`MAIL_FROM_ADDRESS`) through the mail port.
 */
import { getOrganization, getUser } from '#db/orgs';
import { sendServiceEmail } from '#use-cases/service-mail';
import { NotFound } from '#domain/errors';
import { config } from '#ports/config';

/** The owner's address. @throws NotFound when the organization or its owner is gone */
export async function ownerAddress(orgId: string): Promise<{ email: string; workspaceName: string }> {
  const org = await getOrganization(orgId);
  const owner = org && (await getUser(orgId, org.ownerUserId));
  if (!org || !owner) throw new NotFound('Organization owner');
  return { email: owner.email, workspaceName: org.name };
}

/**
 * Sends a plain-text notice to `to`, in the service's own name.
 * @throws MailRejected / Error from the transport (the caller decides whether that fails its work)
 */
export const sendWorkspaceNotice = (to: string, subject: string, text: string): Promise<void> =>
  sendServiceEmail({ to, fromName: 'Transaction-Coordination Service', subject, text });

/** The API's public base URL (`PUBLIC_BASE_URL`, no trailing slash), or a placeholder when unset. */
export const publicBaseUrl = (): string => (config.publicBaseUrl ?? 'https://api.example.invalid').replace(/\/+$/, '');

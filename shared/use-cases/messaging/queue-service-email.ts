/**
 * Queuing an email in the service's own name (issue 24, "sends leave the request path"): a disclosure share, a
 * partner's invitation, a workspace notice. Its send item (shared/db/service-emails.ts) and `service_email.queued`
 * outbox event go into the transaction of the change that causes the email (the recipient, the member, the scheduled
 * deletion), so the email is sent if and only if the change committed; the request answers without waiting. The
 * send worker (functions/message-send with shared/use-cases/messaging/deliver-service-email.ts) sends it once.
 *
 * Free of transports: the API groups that queue bundle neither SES nor nodemailer (test/unit/transport-imports.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { outboxPut } from '#db/outbox';
import { serviceEmailPut, type ServiceEmailContent, type ServiceEmailPurpose, type ServiceEmailSubject } from '#db/service-emails';
import type { TransactItem } from '#db/transact';
import type { Actor } from '#events/outbox';

/**
 * The writes that queue one service email, to add to the transaction of the change that causes it.
 * @param actor the organization (and member, or partner, null for the service) the email belongs to
 * @param subject the record the worker also marks with the outcome (a disclosure recipient), or null
 * @returns the items (2) and the email's id
 */
export function queuedServiceEmailItems(actor: Actor, purpose: ServiceEmailPurpose, email: ServiceEmailContent, subject: ServiceEmailSubject, now: Date): { emailId: string; items: TransactItem[] } {
  const emailId = randomUUID();
  return {
    emailId,
    items: [
      serviceEmailPut({ orgId: actor.orgId, emailId, purpose, subject, payload: email, requestedBy: actor.userId }),
      outboxPut(actor, 'service_email.queued', { emailId, purpose }, now),
    ],
  };
}

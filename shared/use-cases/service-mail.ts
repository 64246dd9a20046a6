/**
 * Email the service sends in its own name (`MAIL_FROM_ADDRESS`), sent directly: plain text to one recipient, through
 * the plain mail port (SES `Simple` content in AWS). Only workers call it: the send worker for queued disclosure
 * shares, invitations and deletion notices (shared/use-cases/messaging/deliver-service-email.ts), the oauth function
 * for sign-in codes (the user is waiting; README "Service email") and the export worker for its notice. The API
 * groups queue instead (shared/use-cases/messaging/queue-service-email.ts).
 */
import { serviceSender } from '#ports/mailer';
import { plainMailer } from '#ports/plain-mailer';

/**
 * Sends a plain-text email from the service's sender with display name `fromName`.
 * @throws MailRejected when refused for good; Error from the transport otherwise
 */
export async function sendServiceEmail(m: { to: string; fromName: string; subject: string; text: string }): Promise<void> {
  await plainMailer().send({ from: { address: serviceSender(), name: m.fromName }, to: m.to, subject: m.subject, text: m.text });
}

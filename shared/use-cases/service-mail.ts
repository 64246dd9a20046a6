/**
 * Email the service sends in its own name (`MAIL_FROM_ADDRESS`): disclosure links, invitations, sign-in codes and
 * workspace notices. Plain text to one recipient, through the plain mail port (SES `Simple` content in AWS).
 */
import { serviceSender } from '#ports/mailer';
import { plainMailer } from '#ports/plain-mailer';

/**
 * Sends a plain-text email from the service's sender with display name `fromName`.
 * @throws MailRejected when refused for good; Error from the transport otherwise
 */
export async function sendServiceEmail(m: { to: string; fromName: string; subject: string; text: string }): Promise<void> {
  await (await plainMailer()).send({ from: { address: serviceSender(), name: m.fromName }, to: m.to, subject: m.subject, text: m.text });
}

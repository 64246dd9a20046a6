/**
 * The service's mail identities (`MAIL_FROM_ADDRESS`, `INBOUND_MAIL_DOMAIN`), apart from the mail port
 * (shared/ports/mailer.ts) so that code which only names addresses (the request path queuing an email) does not
 * bundle a transport.
 */
import { config } from '#ports/config';

/** The service's own sender when a member has no connected mailbox (`MAIL_FROM_ADDRESS`). @throws ConfigurationError when unset */
export function serviceSender(): string {
  return config.mailFromAddress;
}

/** The domain inbound replies are addressed to (`INBOUND_MAIL_DOMAIN`). @throws ConfigurationError when unset */
export function inboundMailDomain(): string {
  return config.inboundMailDomain;
}

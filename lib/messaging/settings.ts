/**
 * The deployment's messaging settings, read from CDK context by `configureApp` (lib/app.ts) and checked here, at
 * synth, so a typo fails `cdk synth` instead of the first send.
 *
 * Context keys (all optional):
 * - `mailDomain`: a domain this stack verifies as an Amazon SES identity (Easy DKIM: publish the three CNAME
 *   records of the `MailDkim*` outputs). Unset: no identity is created (verify one yourself).
 * - `mailFromAddress`: the service's own sender (`MAIL_FROM_ADDRESS`). Default `deals@<mailDomain>`, or
 *   `deals@example.com` without `mailDomain` (SES refuses it until you set a verified one).
 * - `inboundMailDomain`: the domain of the deals' reply addresses (`INBOUND_MAIL_DOMAIN`), received by SES.
 *   Default `reply.<mailDomain>`, or `reply.example.com`. The stack receives mail (SES receipt rule set, inbound-mail
 *   bucket: lib/messaging/inbound-mail.ts) only when this or `mailDomain` is given (`receivesMail`), never for the
 *   placeholder.
 * - `mailSenderIdentities`: further SES identities (comma-separated domains or addresses) that members' `ses`
 *   mailboxes send as. The send grant names exactly these, the `mailDomain` and the sender's address and domain.
 * - `smsOriginationIdentity`: the phone number or pool texts are sent from, as its ARN
 *   (`arn:aws:sms-voice:<region>:<account>:phone-number/phone-…`, `…:pool/pool-…`, `…:sender-id/<id>/<country>`)
 *   or id (`phone-…`, `pool-…`). The stack never buys a number. Unset: texts fail with 503 until it is set.
 * - `smsOptOutList`: the opt-out list of that identity (`SendTextMessage` is authorized on it too). Default `Default`.
 * - `publicBaseUrl`: the base URL of links people open without credentials (`PUBLIC_BASE_URL`, e.g. a custom
 *   domain `https://deals.example-brokerage.com`). Default the HTTP API's own endpoint.
 */
import type { Stack } from 'aws-cdk-lib';

/** What `parseMessagingSettings` reads from context. */
export interface MessagingContext {
  mailDomain?: unknown;
  mailFromAddress?: unknown;
  inboundMailDomain?: unknown;
  mailSenderIdentities?: unknown;
  smsOriginationIdentity?: unknown;
  smsOptOutList?: unknown;
  publicBaseUrl?: unknown;
}

/** Checked messaging settings; see the module comment for each. */
export interface MessagingSettings {
  readonly mailDomain?: string;
  readonly mailFromAddress: string;
  readonly inboundMailDomain: string;
  /** True when `inboundMailDomain` or `mailDomain` was given: only then is a receipt rule set created. */
  readonly receivesMail: boolean;
  /** Identities the send grant names: `mailDomain`, then each sender address with its domain (`mailFromAddress`, `mailSenderIdentities`). */
  readonly mailSendIdentities: readonly string[];
  /** As given: an ARN, or an id resolved to one in the stack's account and region by `originationArn`. */
  readonly smsOriginationIdentity?: string;
  readonly smsOptOutList: string;
  readonly publicBaseUrl?: string;
}

/** The placeholder domain used when `mailDomain` is unset (RFC 2606 reserves it). */
export const PLACEHOLDER_MAIL_DOMAIN = 'example.com';

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const ADDRESS = /^[^@\s]+@([^@\s]+)$/;
const ORIGINATION_ARN = /^arn:aws[a-z-]*:sms-voice:[a-z0-9-]+:\d{12}:(phone-number\/phone-[0-9a-f]{32}|pool\/pool-[0-9a-f]{32}|sender-id\/[A-Za-z0-9-]{1,11}\/[A-Z]{2})$/;
const ORIGINATION_ID = /^(phone|pool)-[0-9a-f]{32}$/;

const text = (value: unknown): string | undefined => {
  if (value === undefined || value === null) return undefined;
  const s = String(value).trim();
  return s ? s : undefined;
};

/**
 * @throws Error naming the context key when a value is malformed (not a domain, not an address, an origination
 *   identity that is neither an ARN nor an id — an E.164 number cannot be named in an IAM policy)
 */
export function parseMessagingSettings(ctx: MessagingContext): MessagingSettings {
  const mailDomain = text(ctx.mailDomain)?.toLowerCase();
  if (mailDomain && !DOMAIN.test(mailDomain)) throw new Error(`context mailDomain must be a domain name (got ${mailDomain})`);
  const base = mailDomain ?? PLACEHOLDER_MAIL_DOMAIN;
  const mailFromAddress = text(ctx.mailFromAddress) ?? `deals@${base}`;
  const fromDomain = ADDRESS.exec(mailFromAddress)?.[1]?.toLowerCase();
  if (!fromDomain || !DOMAIN.test(fromDomain)) throw new Error(`context mailFromAddress must be an email address (got ${mailFromAddress})`);
  const inboundMailDomain = (text(ctx.inboundMailDomain) ?? `reply.${base}`).toLowerCase();
  if (!DOMAIN.test(inboundMailDomain)) throw new Error(`context inboundMailDomain must be a domain name (got ${inboundMailDomain})`);

  // SES authorizes a send against the identity that covers the sender: the address itself or its domain.
  const identitiesOf = (identity: string): string[] => {
    const domain = ADDRESS.exec(identity)?.[1]?.toLowerCase();
    return domain ? [identity, domain] : [identity.toLowerCase()];
  };
  const extra = (text(ctx.mailSenderIdentities) ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const identity of extra) {
    if (!DOMAIN.test(identitiesOf(identity).at(-1)!)) throw new Error(`context mailSenderIdentities: ${identity} is neither a domain nor an email address`);
  }
  const mailSendIdentities = [...new Set([...(mailDomain ? [mailDomain] : []), ...identitiesOf(mailFromAddress), ...extra.flatMap(identitiesOf)])];

  const smsOriginationIdentity = text(ctx.smsOriginationIdentity);
  if (smsOriginationIdentity && !ORIGINATION_ARN.test(smsOriginationIdentity) && !ORIGINATION_ID.test(smsOriginationIdentity)) {
    throw new Error(
      `context smsOriginationIdentity must be a phone number, pool or sender ID ARN, or a phone-…/pool-… id (got ${smsOriginationIdentity}); ` +
        'a bare +1… number cannot be named in the IAM policy: use `aws pinpoint-sms-voice-v2 describe-phone-numbers` for its ARN',
    );
  }
  const smsOptOutList = text(ctx.smsOptOutList) ?? 'Default';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(smsOptOutList)) throw new Error(`context smsOptOutList must be an opt-out list name (got ${smsOptOutList})`);

  const publicBaseUrl = text(ctx.publicBaseUrl)?.replace(/\/+$/, '');
  if (publicBaseUrl && !/^https:\/\/[^/\s]+(\/[^\s]*)?$/.test(publicBaseUrl)) throw new Error(`context publicBaseUrl must be an https URL (got ${publicBaseUrl})`);

  const receivesMail = Boolean(mailDomain || text(ctx.inboundMailDomain));
  return { mailDomain, mailFromAddress, inboundMailDomain, receivesMail, mailSendIdentities, smsOriginationIdentity, smsOptOutList, publicBaseUrl };
}

/** The origination identity's ARN (an id is resolved in `stack`'s account and region), or undefined when unset. */
export function originationArn(stack: Stack, settings: MessagingSettings): string | undefined {
  const id = settings.smsOriginationIdentity;
  if (!id || id.startsWith('arn:')) return id;
  const [kind] = id.split('-');
  return stack.formatArn({ service: 'sms-voice', resource: kind === 'pool' ? 'pool' : 'phone-number', resourceName: id });
}

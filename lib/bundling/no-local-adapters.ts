/**
 * Bundling alias for the local-runtime adapters of the mail, SMS, scheduler, push and token-signer ports
 * (`#ports/<port>/local`) in every deployed function: they hold the local SMTP transport, the JSON-lines SMS and
 * push sinks, the local schedule store (luxon) and a generated signing key (jose), which a Lambda never selects
 * (`MAIL_TRANSPORT`, `SMS_TRANSPORT`, `SCHEDULER`, `PUSH_TRANSPORT` are never `local` there, and the OAuth
 * function always has `OAUTH_SIGNING_KEY_ID`) and must not carry. Used only by esbuild (lib/service-function.ts
 * and bench/bundles.ts).
 */
import type { Mailer } from '#ports/mailer';
import type { Scheduler } from '#ports/scheduler';
import type { SmsSender } from '#ports/sms';
import type { PushSender } from '#ports/push';
import type { TokenSigner } from '#ports/token-signer';

const absent = (): never => {
  throw new Error('Local adapters are not bundled into deployed functions; unset MAIL_TRANSPORT, SMS_TRANSPORT, SCHEDULER and PUSH_TRANSPORT, and set OAUTH_SIGNING_KEY_ID.');
};

/** Same names as the local adapters; each throws. */
export const localMailer: () => Mailer = absent;
export const localSms: () => SmsSender = absent;
export const localScheduler: () => Scheduler = absent;
export const localPush: () => PushSender = absent;
export const localTokenSigner: (file?: string) => Promise<TokenSigner> = absent;

/**
 * Bundling alias for the local-runtime adapters of the mail, SMS and scheduler ports (`#ports/mail/local`,
 * `#ports/sms/local`, `#ports/scheduler/local`) in every deployed function: they hold the local SMTP transport, the
 * JSON-lines SMS sink and the local schedule store (luxon), which a Lambda never selects (`MAIL_TRANSPORT`,
 * `SMS_TRANSPORT`, `SCHEDULER` are never `local` there) and must not carry. Used only by esbuild
 * (lib/service-function.ts and bench/bundles.ts).
 */
import type { Mailer } from '#ports/mailer';
import type { Scheduler } from '#ports/scheduler';
import type { SmsSender } from '#ports/sms';

const absent = (): never => {
  throw new Error('Local adapters are not bundled into deployed functions; unset MAIL_TRANSPORT, SMS_TRANSPORT and SCHEDULER.');
};

/** Same names as the local adapters; each throws. */
export const localMailer: () => Mailer = absent;
export const localSms: () => SmsSender = absent;
export const localScheduler: () => Scheduler = absent;

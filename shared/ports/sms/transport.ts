/**
 * The SMS port's transport for this environment (shared/ports/sms.ts): `SMS_TRANSPORT=local` → the local runtime's
 * sink file (shared/ports/sms/local.ts), else AWS End User Messaging SMS (shared/ports/sms/aws.ts). Both adapters are
 * imported statically: in a deployed bundle the local one is aliased to a stub (lib/bundling/no-local-adapters.ts),
 * and an `import()` would make esbuild wrap the AWS adapter for lazy initialisation and keep every command of the
 * SMS client (issue 24: the send worker ≤ 600 KB).
 */
import type { SmsSender } from '#ports/sms';
import { awsSms } from '#ports/sms/aws';
import { localSms } from '#ports/sms/local';
import { config } from '#ports/config';

let instance: SmsSender | undefined;

/** The SMS sender for this environment, made on first use. */
export function smsSender(): SmsSender {
  instance ??= config.localSms ? localSms() : awsSms();
  return instance;
}

/** Drops the cached sender (tests and the local runtime switching transports). */
export function resetSmsSender(): void {
  instance = undefined;
}

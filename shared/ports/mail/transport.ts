/**
 * The mail port's transport for this environment (shared/ports/mailer.ts): `MAIL_TRANSPORT=local` → the local
 * runtime's SMTP server (shared/ports/mail/local.ts), else AWS (shared/ports/mail/aws.ts: SES v2, or a member's own
 * SMTP server). Both adapters are imported statically: in a deployed bundle the local one is aliased to a stub
 * (lib/bundling/no-local-adapters.ts), and an `import()` would make esbuild wrap the AWS adapter for lazy
 * initialisation and keep every command of the SES v2 and Secrets Manager clients (issue 24: the send worker ≤ 600 KB).
 * Kept apart from the port so the functions that import only its types and errors (the OAuth server, the export
 * worker) do not reach nodemailer.
 */
import type { Mailer } from '#ports/mailer';
import { awsMailer } from '#ports/mail/aws';
import { localMailer } from '#ports/mail/local';
import { config } from '#ports/config';

let instance: Mailer | undefined;

/** The mailer for this environment, made on first use. @throws Error from the local adapter's stub in a deployed bundle with `MAIL_TRANSPORT=local` */
export function mailer(): Mailer {
  instance ??= config.localMail ? localMailer() : awsMailer();
  return instance;
}

/** Drops the cached mailer (tests and the local runtime switching transports). */
export function resetMailer(): void {
  instance = undefined;
}

/**
 * The `mail-account` commands of the operator CLI (bin/admin.ts): connect a member's mailbox, list them.
 * - `ses`: the member sends as an address (or domain) the operator verified in Amazon SES; name it in context
 *   `mailSenderIdentities` too, so the functions may send as it.
 * - `smtp`: the member's own SMTP server; the password is stored by the operator in Secrets Manager under
 *   `tcs/mail/` (`aws secretsmanager create-secret --name tcs/mail/<name> --secret-string …`), the only secrets the
 *   functions may read, and only its name or ARN is kept here. Port 465 means TLS from the start; any other port
 *   requires STARTTLS.
 * A member's first mailbox becomes their default (used when a send names none); `--default` moves the default.
 */
import { isMailSecretRef, MAIL_SECRET_PREFIX, type MailAccount, type MailAccountKind } from '#db/mail-accounts';

/** The `parseArgs` options these commands read (merged into bin/admin.ts's). */
export const MAIL_ACCOUNT_OPTIONS = {
  kind: { type: 'string' },
  from: { type: 'string' },
  default: { type: 'boolean' },
  'smtp-host': { type: 'string' },
  'smtp-port': { type: 'string' },
  'smtp-user': { type: 'string' },
  secret: { type: 'string' },
} as const;

/** The values of the options (plus `user` and `name`, shared with other commands). */
export interface MailAccountValues {
  user?: string;
  name?: string;
  kind?: string;
  from?: string;
  default?: boolean;
  'smtp-host'?: string;
  'smtp-port'?: string;
  'smtp-user'?: string;
  secret?: string;
}

const ADDRESS = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/**
 * `mail-account add`: validates the options and connects the mailbox.
 * @param fail builds the usage error to throw (exit code 1)
 * @returns the account as stored (no password: only the secret's name)
 * @throws what `fail` builds for a missing or invalid option, an SMTP option on an `ses` account, a secret outside
 *   `tcs/mail/`, or a user who is not a member of the organization
 */
export async function addMailAccount(orgId: string, values: MailAccountValues, fail: (message: string) => Error): Promise<MailAccount> {
  const { getUser } = await import('#db/orgs');
  const { createMailAccount, listMailAccounts, setDefaultMailAccount } = await import('#db/mail-accounts');
  const userId = values.user?.trim();
  if (!userId) throw fail('--user is required');
  if (!(await getUser(orgId, userId))) throw fail(`--user ${userId} is not a member of organization ${orgId}`);
  const kind = values.kind as MailAccountKind;
  if (kind !== 'ses' && kind !== 'smtp') throw fail('--kind must be ses or smtp');
  const fromAddress = values.from?.trim() ?? '';
  if (!ADDRESS.test(fromAddress)) throw fail('--from must be an email address');

  const smtpFlags = (['smtp-host', 'smtp-port', 'smtp-user', 'secret'] as const).filter((k) => values[k] !== undefined);
  let smtp: MailAccount['smtp'] = null;
  if (kind === 'ses') {
    if (smtpFlags.length) throw fail(`--${smtpFlags[0]} applies to --kind smtp only`);
  } else {
    const host = values['smtp-host']?.trim();
    const username = values['smtp-user']?.trim();
    const secretRef = values.secret?.trim();
    const port = Number(values['smtp-port'] ?? 587);
    if (!host) throw fail('--smtp-host is required for --kind smtp');
    if (!username) throw fail('--smtp-user is required for --kind smtp');
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw fail('--smtp-port must be a port number (587 for STARTTLS, 465 for TLS)');
    if (!secretRef || !isMailSecretRef(secretRef)) throw fail(`--secret must name a Secrets Manager secret under ${MAIL_SECRET_PREFIX} (name or ARN): the functions may read only those`);
    smtp = { host, port, secure: port === 465, username, secretRef };
  }

  const existing = await listMailAccounts(orgId, userId);
  const isDefault = values.default === true || existing.length === 0;
  const account = await createMailAccount(orgId, { userId, kind, fromAddress, displayName: values.name?.trim() || null, smtp, isDefault });
  if (isDefault && existing.some((a) => a.isDefault)) await setDefaultMailAccount(orgId, userId, account.id);
  return account;
}

/** `mail-account list`: the organization's mailboxes (one member's with `user`), each member's default first. */
export async function listOrgMailAccounts(orgId: string, userId?: string): Promise<MailAccount[]> {
  const { listUsers } = await import('#db/orgs');
  const { listMailAccounts } = await import('#db/mail-accounts');
  const userIds = userId ? [userId] : (await listUsers(orgId)).map((u) => u.userId);
  return (await Promise.all(userIds.map((id) => listMailAccounts(orgId, id)))).flat();
}

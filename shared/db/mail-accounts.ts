/**
 * Members' connected mailboxes (spec "Messaging": deal email routes through the acting user's connected
 * mailbox). An account is `PK = ORG#<orgId>`, `SK = MAILACCT#<accountId>`, owned by one member:
 * - `ses`: an address (or domain) verified in Amazon SES, sent through SES;
 * - `smtp`: the member's own SMTP mailbox; its password lives in AWS Secrets Manager (`secretRef` is the secret's
 *   ARN or name), never in the table.
 * Accounts are connected with the operator CLI (`npm run admin -- mail-account add …`).
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { orgPk } from '#db/keys';
import { NotFound } from '#domain/errors';

/**
 * Name prefix of the Secrets Manager secrets holding SMTP passwords. The deployed functions may read only secrets
 * under it (lib/messaging/mail-sending.ts), and the operator CLI refuses a `secretRef` outside it.
 */
export const MAIL_SECRET_PREFIX = 'tcs/mail/';

/** True when `ref` (a secret name or ARN) names a secret under `MAIL_SECRET_PREFIX`. */
export function isMailSecretRef(ref: string): boolean {
  const name = ref.startsWith('arn:') ? ref.split(':').slice(6).join(':') : ref;
  return name.startsWith(MAIL_SECRET_PREFIX) && name.length > MAIL_SECRET_PREFIX.length;
}

/** How an account sends. */
export type MailAccountKind = 'ses' | 'smtp';

/** SMTP settings of an `smtp` account (RFC 5321 submission, usually port 587 with STARTTLS or 465 with TLS). */
export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the start (port 465); false means STARTTLS, which is then required (the password never goes in clear). */
  secure: boolean;
  username: string;
  /** Secrets Manager secret (ARN or name, under `MAIL_SECRET_PREFIX`) holding the password. */
  secretRef: string;
}

export interface MailAccount {
  id: string;
  userId: string;
  kind: MailAccountKind;
  fromAddress: string;
  displayName: string | null;
  smtp: SmtpSettings | null;
  /** The member's account used when a send names none. */
  isDefault: boolean;
  createdAt: string;
}

const accountKey = (orgId: string, accountId: string) => ({ PK: orgPk(orgId), SK: `MAILACCT#${accountId}` });

function toMailAccount(item: Record<string, any>): MailAccount {
  const { id, userId, kind, fromAddress, displayName, smtp, isDefault, createdAt } = item;
  return { id, userId, kind, fromAddress, displayName: displayName ?? null, smtp: smtp ?? null, isDefault: Boolean(isDefault), createdAt };
}

/** Connects a mailbox for a member. @returns the account */
export async function createMailAccount(orgId: string, input: Omit<MailAccount, 'id' | 'createdAt'>, now = new Date()): Promise<MailAccount> {
  const account: MailAccount = { ...input, id: randomUUID(), createdAt: now.toISOString() };
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...accountKey(orgId, account.id), entity: 'MailAccount', orgId, ...account }, ConditionExpression: 'attribute_not_exists(SK)' }));
  return account;
}

/** The account. @throws NotFound when absent or another organization's */
export async function getMailAccount(orgId: string, accountId: string): Promise<MailAccount> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: accountKey(orgId, accountId) }));
  if (!out.Item) throw new NotFound('Mail account');
  return toMailAccount(out.Item);
}

/** A member's accounts, default first. */
export async function listMailAccounts(orgId: string, userId: string): Promise<MailAccount[]> {
  const out = await db().send(
    new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)', ExpressionAttributeValues: { ':pk': orgPk(orgId), ':p': 'MAILACCT#' } }),
  );
  return (out.Items ?? [])
    .map(toMailAccount)
    .filter((a) => a.userId === userId)
    .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.createdAt.localeCompare(b.createdAt));
}

/** Makes `accountId` the member's default mailbox and clears the flag on their other accounts. */
export async function setDefaultMailAccount(orgId: string, userId: string, accountId: string): Promise<void> {
  for (const a of await listMailAccounts(orgId, userId)) {
    const isDefault = a.id === accountId;
    if (a.isDefault === isDefault) continue;
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key: accountKey(orgId, a.id), UpdateExpression: 'SET isDefault = :d', ConditionExpression: 'attribute_exists(SK)', ExpressionAttributeValues: { ':d': isDefault } }),
    );
  }
}

/**
 * Who may not be contacted, address by address. Both are about the recipient, not a tenant, so their keys
 * start with the address (the items carry the `orgId` of the message that caused them):
 * - SMS opt-out: `PK = SMSOPTOUT#<e164>`, `SK = OPTOUT`. A number that texted STOP is never texted again
 *   (`forceOverride` or not) until it texts START (CTIA Messaging Principles; carriers require honouring STOP).
 * - Email suppression: `PK = EMAILSUPPRESS#<lower-cased address>`, `SK = SUPPRESSED`, after a permanent bounce or
 *   a complaint reported by the mail provider (as SES's own account-level suppression list does).
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';

const optOutKey = (phone: string) => ({ PK: `SMSOPTOUT#${phone}`, SK: 'OPTOUT' });
const suppressionKey = (address: string) => ({ PK: `EMAILSUPPRESS#${address.toLowerCase()}`, SK: 'SUPPRESSED' });

/** An opted-out number. */
export interface SmsOptOut {
  phone: string;
  keyword: string;
  optedOutAt: string;
}

/** A suppressed email address. */
export interface EmailSuppression {
  address: string;
  reason: 'bounce' | 'complaint';
  detail: string | null;
  suppressedAt: string;
}

/**
 * `orgId` as an item attribute, or nothing when unknown: `orgId` is GSI3's partition key (lib/table.ts), and DynamoDB
 * refuses an index key attribute of type NULL (ValidationException), so an unknown organization leaves the item
 * out of the sparse index instead.
 */
const orgAttribute = (orgId: string | null): { orgId?: string } => (orgId === null ? {} : { orgId });

/** Records that `phone` (E.164) texted an opt-out keyword. */
export async function optOutSms(phone: string, keyword: string, orgId: string | null, now: Date): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...optOutKey(phone), entity: 'SmsOptOut', ...orgAttribute(orgId), phone, keyword, optedOutAt: now.toISOString() } }));
}

/** Lifts an opt-out (the number texted START). */
export async function optInSms(phone: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: optOutKey(phone) }));
}

/** The opt-out of `phone`, or undefined when it may be texted. */
export async function findSmsOptOut(phone: string): Promise<SmsOptOut | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: optOutKey(phone), ConsistentRead: true }));
  return out.Item ? { phone: out.Item.phone, keyword: out.Item.keyword, optedOutAt: out.Item.optedOutAt } : undefined;
}

/** Suppresses an address after a permanent bounce or a complaint. */
export async function suppressEmail(address: string, reason: EmailSuppression['reason'], detail: string | null, orgId: string | null, now: Date): Promise<void> {
  await db().send(
    new PutCommand({ TableName: tableName(), Item: { ...suppressionKey(address), entity: 'EmailSuppression', ...orgAttribute(orgId), address: address.toLowerCase(), reason, detail, suppressedAt: now.toISOString() } }),
  );
}

/** The suppression of `address`, or undefined when it may be emailed. */
export async function findEmailSuppression(address: string): Promise<EmailSuppression | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: suppressionKey(address), ConsistentRead: true }));
  return out.Item ? { address: out.Item.address, reason: out.Item.reason, detail: out.Item.detail ?? null, suppressedAt: out.Item.suppressedAt } : undefined;
}

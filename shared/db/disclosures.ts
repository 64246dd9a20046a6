/**
 * Disclosure packages (spec "Disclosure packages"): a named set of documents shared with invited recipients. One item
 * collection per package, read with one `Query`: `PK = ORG#<orgId>#DISC#<packageId>` holding `SK = DISC` (the package),
 * `RCPT#<recipientId>` (each recipient, with its view and acknowledgement state) and `LOG#<time>#<id>` (the activity
 * log: invited, viewed, downloaded, acknowledged, revoked). Packages of a deal are listed on GSI1
 * (`ORG#<orgId>#TXN#<transactionId>#DISCS`).
 */
import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { disclosurePk, gsi1 } from '#db/keys';
import { transactWrite, type TransactItem } from '#db/transact';
import { NotFound } from '#domain/errors';

export interface DisclosurePackage {
  id: string;
  name: string;
  coverMessage: string | null;
  transactionId: string | null;
  /** In display order. */
  documentIds: string[];
  /** The package's own expiry: no recipient's access outlives it. */
  expiresAt: string | null;
  allowDownloads: boolean;
  requireAck: boolean;
  status: 'draft' | 'active';
  activatedAt: string | null;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
}

export interface DisclosureRecipient {
  id: string;
  packageId: string;
  email: string;
  displayLabel: string | null;
  audienceTier: string | null;
  contactId: string | null;
  expiresAt: string;
  invitedAt: string;
  invitedBy: string | null;
  revokedAt: string | null;
  firstViewedAt: string | null;
  lastViewedAt: string | null;
  viewCount: number;
  acknowledgedAt: string | null;
  /**
   * The share email's state: `queued` until the send worker sends it, then `sent`, `failed` (refused, or the address
   * suppressed) or `unknown` (interrupted after it may have gone out; not resent). Read as `sent` for recipients
   * stored before sends were queued (then a failed send took the recipient back).
   */
  emailStatus?: 'queued' | 'sent' | 'failed' | 'unknown';
  /** Why the email failed (`failed`, `unknown`), else null. */
  emailDetail?: string | null;
}

export type ActivityAction = 'invited' | 'viewed' | 'downloaded' | 'acknowledged' | 'revoked';

export interface DisclosureActivity {
  id: string;
  recipientId: string;
  action: ActivityAction;
  documentId: string | null;
  at: string;
}

const pk = disclosurePk;
const dealList = gsi1.dealDisclosures;
const rcptKey = (orgId: string, packageId: string, recipientId: string) => ({ PK: pk(orgId, packageId), SK: `RCPT#${recipientId}` });

const pick = <T>(i: Record<string, any>, keys: readonly (keyof T)[]): T => Object.fromEntries(keys.map((k) => [k, i[k as string] ?? null])) as T;
const PACKAGE_KEYS = ['id', 'name', 'coverMessage', 'transactionId', 'documentIds', 'expiresAt', 'allowDownloads', 'requireAck', 'status', 'activatedAt', 'createdAt', 'updatedAt', 'createdBy'] as const;
const RECIPIENT_KEYS = ['id', 'packageId', 'email', 'displayLabel', 'audienceTier', 'contactId', 'expiresAt', 'invitedAt', 'invitedBy', 'revokedAt', 'firstViewedAt', 'lastViewedAt', 'viewCount', 'acknowledgedAt', 'emailStatus', 'emailDetail'] as const;

/** A package with its recipients and activity log (oldest first). */
export interface PackageState {
  pkg: DisclosurePackage;
  recipients: DisclosureRecipient[];
  activity: DisclosureActivity[];
}

/** Stores a new package. */
export async function createPackage(orgId: string, p: DisclosurePackage): Promise<void> {
  const gsi = p.transactionId ? { GSI1PK: dealList(orgId, p.transactionId), GSI1SK: `${p.createdAt}#${p.id}` } : {};
  await db().send(new PutCommand({ TableName: tableName(), Item: { PK: pk(orgId, p.id), SK: 'DISC', entity: 'DisclosurePackage', orgId, ...p, ...gsi }, ConditionExpression: 'attribute_not_exists(PK)' }));
}

/** The package, its recipients and activity. @throws NotFound when absent or another organization's */
export async function getPackageState(orgId: string, packageId: string): Promise<PackageState> {
  const items: Record<string, any>[] = [];
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const out = await db().send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': pk(orgId, packageId) }, ConsistentRead: true, ExclusiveStartKey }));
    items.push(...(out.Items ?? []));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  const head = items.find((i) => i.SK === 'DISC');
  if (!head) throw new NotFound('Disclosure package');
  return {
    pkg: { ...pick<DisclosurePackage>(head, PACKAGE_KEYS), documentIds: head.documentIds ?? [] },
    recipients: items.filter((i) => String(i.SK).startsWith('RCPT#')).map((i) => ({ ...pick<DisclosureRecipient>(i, RECIPIENT_KEYS), viewCount: Number(i.viewCount ?? 0), emailStatus: i.emailStatus ?? 'sent', emailDetail: i.emailDetail ?? null })).sort((a, b) => a.invitedAt.localeCompare(b.invitedAt)),
    activity: items.filter((i) => String(i.SK).startsWith('LOG#')).map((i) => pick<DisclosureActivity>(i, ['id', 'recipientId', 'action', 'documentId', 'at'])),
  };
}

/** Active packages of a deal (for its client portal), newest first. */
export async function listDealPackages(orgId: string, transactionId: string): Promise<DisclosurePackage[]> {
  const out = await db().send(new QueryCommand({ TableName: tableName(), IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': dealList(orgId, transactionId) }, ScanIndexForward: false, Limit: 50 }));
  return (out.Items ?? []).map((i) => ({ ...pick<DisclosurePackage>(i, PACKAGE_KEYS), documentIds: i.documentIds ?? [] }));
}

/** Sets fields of the package (`updatedAt` too). `onlyIf` adds a condition (e.g. still a draft). */
export async function updatePackage(orgId: string, packageId: string, changes: Partial<DisclosurePackage>, now: Date, onlyIf?: { status: DisclosurePackage['status'] }): Promise<boolean> {
  const all = { ...changes, updatedAt: now.toISOString() };
  const names = Object.keys(all);
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: pk(orgId, packageId), SK: 'DISC' },
        UpdateExpression: `SET ${names.map((n, i) => `#f${i} = :v${i}`).join(', ')}`,
        ConditionExpression: onlyIf ? 'attribute_exists(PK) AND #status = :only' : 'attribute_exists(PK)',
        ExpressionAttributeNames: { ...Object.fromEntries(names.map((n, i) => [`#f${i}`, n])), ...(onlyIf ? { '#status': 'status' } : {}) },
        ExpressionAttributeValues: { ...Object.fromEntries(names.map((n, i) => [`:v${i}`, (all as Record<string, unknown>)[n]])), ...(onlyIf ? { ':only': onlyIf.status } : {}) },
      }),
    );
    return true;
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return false;
    throw err;
  }
}

const logPut = (orgId: string, packageId: string, recipientId: string, action: ActivityAction, at: Date, documentId: string | null = null): TransactItem => {
  const id = randomUUID();
  const entry: DisclosureActivity = { id, recipientId, action, documentId, at: at.toISOString() };
  return { Put: { TableName: tableName(), Item: { PK: pk(orgId, packageId), SK: `LOG#${entry.at}#${id}`, entity: 'DisclosureActivity', orgId, ...entry } } };
};

/**
 * Stores a new recipient and its `invited` entry, with `items` (its link, its queued share email) in the same
 * transaction.
 * @returns the deletes that take both back
 */
export async function addRecipient(orgId: string, r: DisclosureRecipient, now: Date, items: TransactItem[] = []): Promise<TransactItem[]> {
  const invited = logPut(orgId, r.packageId, r.id, 'invited', now);
  await transactWrite([{ Put: { TableName: tableName(), Item: { ...rcptKey(orgId, r.packageId, r.id), entity: 'DisclosureRecipient', orgId, ...r }, ConditionExpression: 'attribute_not_exists(SK)' } }, invited, ...items]);
  const { PK, SK } = invited.Put!.Item!;
  return [
    { Delete: { TableName: tableName(), Key: rcptKey(orgId, r.packageId, r.id) } },
    { Delete: { TableName: tableName(), Key: { PK, SK } } },
  ];
}

/**
 * The `Update` recording the outcome of a recipient's share email (the send worker, in the transaction that closes
 * the send); conditional on the recipient existing, so a purged package gets no stray item.
 */
export function recipientEmailUpdate(orgId: string, packageId: string, recipientId: string, emailStatus: 'sent' | 'failed' | 'unknown', emailDetail: string | null): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: rcptKey(orgId, packageId, recipientId),
      UpdateExpression: 'SET emailStatus = :s, emailDetail = :d',
      ConditionExpression: 'attribute_exists(SK)',
      ExpressionAttributeValues: { ':s': emailStatus, ':d': emailDetail },
    },
  };
}

/**
 * Revokes the recipient's access (idempotent: a second revoke changes nothing and logs nothing).
 * @returns false when it was already revoked
 * @throws NotFound when the recipient is not one of the package's
 */
export async function revokeRecipient(orgId: string, packageId: string, recipientId: string, now: Date): Promise<boolean> {
  try {
    await transactWrite([
      { Update: { TableName: tableName(), Key: rcptKey(orgId, packageId, recipientId), UpdateExpression: 'SET revokedAt = :now', ConditionExpression: 'attribute_exists(SK) AND revokedAt = :null', ExpressionAttributeValues: { ':now': now.toISOString(), ':null': null } } },
      logPut(orgId, packageId, recipientId, 'revoked', now),
    ]);
    return true;
  } catch (err) {
    // A failed condition: unknown recipient, or already revoked. Read which.
    const state = await getPackageState(orgId, packageId);
    const r = state.recipients.find((x) => x.id === recipientId);
    if (!r) throw new NotFound('Disclosure recipient');
    if (r.revokedAt) return false;
    throw err;
  }
}

/**
 * Records that the recipient opened the page: counts the view and logs it, with `firstViewItems` (the caller's
 * event) in the same transaction on the first view only (`r.firstViewedAt` null; of two first views at once, one).
 */
export async function recordView(orgId: string, pkg: DisclosurePackage, r: DisclosureRecipient, now: Date, firstViewItems: TransactItem[] = []): Promise<void> {
  const first = r.firstViewedAt === null;
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: rcptKey(orgId, pkg.id, r.id),
        UpdateExpression: first ? 'SET lastViewedAt = :now, firstViewedAt = :now ADD viewCount :one' : 'SET lastViewedAt = :now ADD viewCount :one',
        ConditionExpression: first ? 'attribute_exists(SK) AND firstViewedAt = :null' : 'attribute_exists(SK)',
        ExpressionAttributeValues: { ':now': now.toISOString(), ':one': 1, ...(first ? { ':null': null } : {}) },
      },
    },
    logPut(orgId, pkg.id, r.id, 'viewed', now),
  ];
  if (first) items.push(...firstViewItems);
  try {
    await transactWrite(items);
  } catch (err) {
    // Two first opens at once: the other one recorded the first view; count this one as a later view.
    if (first) return recordView(orgId, pkg, { ...r, firstViewedAt: now.toISOString() }, now);
    throw err;
  }
}

/** Records an acknowledgement (only the first counts; later ones change nothing). */
export async function recordAcknowledgement(orgId: string, packageId: string, recipientId: string, now: Date): Promise<void> {
  try {
    await transactWrite([
      { Update: { TableName: tableName(), Key: rcptKey(orgId, packageId, recipientId), UpdateExpression: 'SET acknowledgedAt = :now', ConditionExpression: 'attribute_exists(SK) AND acknowledgedAt = :null', ExpressionAttributeValues: { ':now': now.toISOString(), ':null': null } } },
      logPut(orgId, packageId, recipientId, 'acknowledged', now),
    ]);
  } catch {
    // Already acknowledged (or a concurrent acknowledgement won): nothing to add.
  }
}

/** Logs a download of `documentId`. */
export async function recordDownload(orgId: string, packageId: string, recipientId: string, documentId: string, now: Date): Promise<void> {
  await transactWrite([logPut(orgId, packageId, recipientId, 'downloaded', now, documentId)]);
}

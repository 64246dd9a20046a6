/**
 * Organizations and their users. Org: `PK = ORG#<orgId>`, `SK = ORG`; user: same partition,
 * `SK = USER#<userId>`. Creating an organization writes the org, its owner, the default status
 * vocabulary and three starter keys (read / draft / actions) in one transaction.
 */
import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { gsi1, gsi2, orgPk } from '#db/keys';
import { apiKeyItem, newKeyValue } from '#db/api-keys';
import { statusVocabularyItem } from '#db/statuses';
import { transactWrite, type TransactItem } from '#db/transact';
import type { Scope } from '#api/types';

export interface Organization {
  orgId: string;
  name: string;
  ownerUserId: string;
  createdAt: string;
}

export interface OrgUser {
  userId: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: 'owner' | 'admin' | 'agent' | 'coordinator';
  createdAt: string;
}

/** The three starter keys, each with the scopes its name says (actions ⊇ draft ⊇ read). */
export const STARTER_KEYS: Record<'read' | 'draft' | 'actions', Scope[]> = {
  read: ['read'],
  draft: ['read', 'draft'],
  actions: ['read', 'draft', 'actions'],
};

/** The organization item's key (`PK = ORG#<orgId>`, `SK = ORG`). */
export const orgItemKey = (orgId: string) => ({ PK: orgPk(orgId), SK: 'ORG' });

/** A member item; GSI2 finds a person's memberships by email (OAuth sign-in). */
const userItem = (orgId: string, u: OrgUser) => ({ PK: orgPk(orgId), SK: `USER#${u.userId}`, GSI2PK: gsi2.userByEmail(u.email), GSI2SK: orgPk(orgId), entity: 'User', orgId, ...u });

/**
 * Creates an organization with its owner, default statuses and starter keys, in one transaction.
 * @param also writes to commit with it (the owner's queued invitation), given the new ids
 * @returns the ids and the one-time key values `{ orgId, ownerUserId, keys: { read, draft, actions } }`
 */
export async function createOrganization(input: {
  name: string;
  ownerEmail: string;
  ownerFirstName?: string;
  ownerLastName?: string;
  /** Provisioned by this partner (shared/db/partners.ts): the item is marked and listed under it; no starter keys. */
  partnerId?: string;
}, also: (created: { orgId: string; owner: OrgUser }) => TransactItem[] = () => []) {
  const orgId = randomUUID();
  const owner: OrgUser = {
    userId: randomUUID(),
    email: input.ownerEmail.trim().toLowerCase(),
    firstName: input.ownerFirstName ?? null,
    lastName: input.ownerLastName ?? null,
    role: 'owner',
    createdAt: new Date().toISOString(),
  };
  const org: Organization = { orgId, name: input.name, ownerUserId: owner.userId, createdAt: owner.createdAt };
  const keys = { read: newKeyValue('org'), draft: newKeyValue('org'), actions: newKeyValue('org') };
  // A partner's organization: its GSI1 entry lists it under the partner. Its members mint their own keys.
  const partner = input.partnerId ? { partnerId: input.partnerId, plan: 'standard', GSI1PK: gsi1.partnerOrgs(input.partnerId), GSI1SK: `${org.createdAt}#${orgId}` } : {};
  await transactWrite([
    { Put: { TableName: tableName(), Item: { ...orgItemKey(orgId), entity: 'Organization', ...org, ...partner }, ConditionExpression: 'attribute_not_exists(PK)' } },
    { Put: { TableName: tableName(), Item: userItem(orgId, owner) } },
    { Put: { TableName: tableName(), Item: statusVocabularyItem(orgId) } },
    ...(input.partnerId ? [] : (Object.keys(keys) as (keyof typeof keys)[])).map((name) => ({
      Put: {
        TableName: tableName(),
        Item: apiKeyItem({ orgId, userId: owner.userId, name: `starter ${name} key`, scopes: STARTER_KEYS[name], kind: 'org', keyId: randomUUID(), value: keys[name] }),
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    })),
    ...also({ orgId, owner }),
  ]);
  return { orgId, ownerUserId: owner.userId, owner, createdAt: org.createdAt, keys };
}

/**
 * Adds a member (seeding, the operator CLI, a partner's seat invitation).
 * @param also writes to commit with it (the member's queued invitation), given the new member
 */
export async function addUser(orgId: string, user: Omit<OrgUser, 'userId' | 'createdAt'>, also: (u: OrgUser) => TransactItem[] = () => []): Promise<OrgUser> {
  const u: OrgUser = { ...user, userId: randomUUID(), createdAt: new Date().toISOString() };
  await transactWrite([{ Put: { TableName: tableName(), Item: userItem(orgId, u), ConditionExpression: 'attribute_not_exists(SK)' } }, ...also(u)]);
  return u;
}

/** The organization, or undefined. */
export async function getOrganization(orgId: string, consistent = false): Promise<Organization | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: orgItemKey(orgId), ConsistentRead: consistent }));
  if (!out.Item) return undefined;
  const { orgId: id, name, ownerUserId, createdAt } = out.Item as Organization;
  return { orgId: id, name, ownerUserId, createdAt };
}

/** The member, or undefined. */
export async function getUser(orgId: string, userId: string): Promise<OrgUser | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: orgPk(orgId), SK: `USER#${userId}` } }));
  if (!out.Item) return undefined;
  const { email, firstName, lastName, role, createdAt } = out.Item;
  return { userId, email, firstName: firstName ?? null, lastName: lastName ?? null, role, createdAt };
}

/**
 * True when `userId` is a member of the organization (one `GetItem`, key only).
 * @param consistent strongly consistent read (OAuth: a removed member is refused at once)
 */
export async function isMember(orgId: string, userId: string, consistent = false): Promise<boolean> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: orgPk(orgId), SK: `USER#${userId}` }, ProjectionExpression: 'userId', ConsistentRead: consistent }));
  return out.Item !== undefined;
}

/** Memberships of `email` in every organization: `{ orgId, user }` (GSI2, eventually consistent). */
export async function membershipsByEmail(email: string): Promise<{ orgId: string; user: OrgUser }[]> {
  const out = await db().send(
    new QueryCommand({ TableName: tableName(), IndexName: 'GSI2', KeyConditionExpression: 'GSI2PK = :pk', ExpressionAttributeValues: { ':pk': gsi2.userByEmail(email) } }),
  );
  return (out.Items ?? []).map((i) => ({ orgId: i.orgId as string, user: { userId: i.userId, email: i.email, firstName: i.firstName ?? null, lastName: i.lastName ?? null, role: i.role, createdAt: i.createdAt } }));
}

/**
 * Gives member items written before OAuth sign-in existed their GSI2 email entry (without it the person cannot sign
 * in: `membershipsByEmail` does not find them). A paged Scan for member items lacking `GSI2PK`; each is updated on
 * condition that it still exists and still lacks it, so a member removed or rewritten meanwhile is left alone. Safe
 * to run again: a second run finds nothing.
 * @returns how many member items were updated
 */
export async function backfillMemberEmailIndex(): Promise<number> {
  let updated = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'entity = :user AND attribute_not_exists(GSI2PK)',
        ExpressionAttributeValues: { ':user': 'User' },
        ProjectionExpression: 'PK, SK, orgId, email',
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      try {
        await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: { PK: item.PK, SK: item.SK },
            UpdateExpression: 'SET GSI2PK = :pk, GSI2SK = :sk',
            ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(GSI2PK)',
            ExpressionAttributeValues: { ':pk': gsi2.userByEmail(item.email as string), ':sk': orgPk(item.orgId as string) },
          }),
        );
        updated++;
      } catch (err) {
        if (!(err instanceof ConditionalCheckFailedException)) throw err;
      }
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return updated;
}

/** Removes a member (their OAuth tokens then get 401: membership is re-read on every call). @returns false when absent */
export async function removeUser(orgId: string, userId: string): Promise<boolean> {
  const out = await db().send(new DeleteCommand({ TableName: tableName(), Key: { PK: orgPk(orgId), SK: `USER#${userId}` }, ReturnValues: 'ALL_OLD' }));
  return out.Attributes !== undefined;
}

/** The organization's members. */
export async function listUsers(orgId: string): Promise<OrgUser[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :user)',
      ExpressionAttributeValues: { ':pk': orgPk(orgId), ':user': 'USER#' },
    }),
  );
  return (out.Items ?? []).map(({ userId, email, firstName, lastName, role, createdAt }) => ({ userId, email, firstName, lastName, role, createdAt }) as OrgUser);
}

/**
 * The organization's time zone when none is set: reminders fire at their time of day here. Central time, where the
 * service's contract forms (TREC) are used; an operator sets another with `setOrganizationTimezone`.
 */
export const DEFAULT_ORG_TIMEZONE = 'America/Chicago';

/** The organization's IANA time zone (attribute `timezone` of the organization item), else the default. */
export async function organizationTimezone(orgId: string): Promise<string> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: orgItemKey(orgId), ProjectionExpression: '#tz', ExpressionAttributeNames: { '#tz': 'timezone' } }));
  return (out.Item?.timezone as string | undefined) || DEFAULT_ORG_TIMEZONE;
}

/** Sets the organization's IANA time zone (the caller checked it is one). */
export async function setOrganizationTimezone(orgId: string, timezone: string): Promise<void> {
  await db().send(
    new UpdateCommand({ TableName: tableName(), Key: orgItemKey(orgId), UpdateExpression: 'SET #tz = :tz', ConditionExpression: 'attribute_exists(PK)', ExpressionAttributeNames: { '#tz': 'timezone' }, ExpressionAttributeValues: { ':tz': timezone } }),
  );
}

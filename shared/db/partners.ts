/**
 * Partners (resellers) and the organizations they provision (spec "Partner organizations").
 *
 * - Partner: `PK = PARTNER#<partnerId>`, `SK = PARTNER` (`name`, `createdAt`). Its `rsk_` keys are API key items
 *   (shared/db/api-keys.ts) of kind `partner` whose `orgId` is the partner's id; the key's `scopes` are its
 *   permissions (`read` for the GET operations, `actions` for provisioning, inviting and removing seats).
 * - A provisioned organization's item carries `partnerId` and GSI1 `PARTNER#<partnerId>#ORGS` / `<createdAt>#<orgId>`,
 *   so a partner lists its organizations with one `Query`, and reading another's finds nothing (404).
 * - The AI fair-use pool's counter: `PK = ORG#<orgId>`, `SK = AIPOOL#<YYYY-MM>` (`used`).
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { apiKeyPk, gsi1, orgPk, partnerPk } from '#db/keys';
import { createApiKey, hashKey, listApiKeys } from '#db/api-keys';
import { orgItemKey, type Organization } from '#db/orgs';
import type { Scope } from '#api/types';

const partnerKey = (partnerId: string) => ({ PK: partnerPk(partnerId), SK: 'PARTNER' });

/** The permissions a partner key can be given (ticked in the console; here the operator CLI). */
export const PARTNER_PERMISSIONS: readonly Scope[] = ['read', 'actions'];

/** Creates a partner. @returns its id */
export async function createPartner(name: string, now = new Date()): Promise<{ partnerId: string; name: string; createdAt: string }> {
  const partner = { partnerId: randomUUID(), name, createdAt: now.toISOString() };
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...partnerKey(partner.partnerId), entity: 'Partner', ...partner }, ConditionExpression: 'attribute_not_exists(PK)' }));
  return partner;
}

/** The partner, or undefined. */
export async function getPartner(partnerId: string): Promise<{ partnerId: string; name: string } | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: partnerKey(partnerId) }));
  return out.Item ? { partnerId, name: out.Item.name } : undefined;
}

/**
 * Mints a partner key: `rsk_` + 256 random bits; only its SHA-256 is stored.
 * @returns `{ keyId, value }`; `value` is shown once and cannot be recovered
 */
export function createPartnerKey(partnerId: string, name: string, permissions: Scope[]) {
  return createApiKey({ orgId: partnerId, userId: partnerId, name, scopes: permissions, kind: 'partner' });
}

/** A provisioned organization as its partner sees it. */
export interface PartnerOrganization extends Organization {
  partnerId: string;
  plan: string;
}

/** The organization if `partnerId` provisioned it, else undefined (never another partner's or an unowned one). */
export async function getPartnerOrg(partnerId: string, orgId: string): Promise<PartnerOrganization | undefined> {
  if (orgId.includes('#')) return undefined;
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: orgItemKey(orgId), ConsistentRead: true }));
  const item = out.Item;
  if (!item || item.partnerId !== partnerId) return undefined;
  return { orgId: item.orgId, name: item.name, ownerUserId: item.ownerUserId, createdAt: item.createdAt, partnerId, plan: item.plan ?? 'standard' };
}

/** The partner's organizations, oldest first: `offset` skipped, at most `limit`. @returns the page and whether more follow */
export async function listPartnerOrgs(partnerId: string, limit: number, offset: number): Promise<{ orgs: PartnerOrganization[]; hasMore: boolean }> {
  const wanted = offset + limit + 1;
  const items: Record<string, any>[] = [];
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({ TableName: tableName(), IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': gsi1.partnerOrgs(partnerId) }, ExclusiveStartKey, Limit: wanted - items.length }),
    );
    items.push(...(out.Items ?? []));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey && items.length < wanted);
  const page = items.slice(offset, offset + limit);
  return {
    orgs: page.map((i) => ({ orgId: i.orgId, name: i.name, ownerUserId: i.ownerUserId, createdAt: i.createdAt, partnerId, plan: i.plan ?? 'standard' })),
    hasMore: items.length > offset + limit,
  };
}

/** AI generations used in the pool period `periodKey` (`YYYY-MM`). Nothing consumes the pool yet (docs/oauth-and-partners.md). */
export async function aiPoolUsed(orgId: string, periodKey: string): Promise<number> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: orgPk(orgId), SK: `AIPOOL#${periodKey}` } }));
  return Number(out.Item?.used ?? 0);
}

/**
 * What the partner stage's authorizer needs of a live partner key: its id, partner, and the API Gateway API key value
 * its usage plan meters it by (`usageKey`, set with the operator CLI's `--usage-key`). Undefined when unknown or revoked.
 */
export async function partnerKeyForStage(value: string): Promise<{ keyId: string; partnerId: string; usageKey?: string } | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: apiKeyPk(hashKey(value)), SK: 'APIKEY' }, ProjectionExpression: 'keyId, orgId, kind, revokedAt, usageKey' }));
  const item = out.Item;
  if (!item || item.kind !== 'partner' || item.revokedAt) return undefined;
  return { keyId: item.keyId, partnerId: item.orgId, ...(item.usageKey ? { usageKey: item.usageKey as string } : {}) };
}

/** Records the API Gateway API key value the partner stage's usage plan meters a partner key by. @returns false when absent */
export async function setPartnerUsageKey(partnerId: string, keyId: string, usageKey: string): Promise<boolean> {
  const key = (await listApiKeys(partnerId)).find((k) => k.keyId === keyId && k.kind === 'partner');
  if (!key) return false;
  await db().send(new UpdateCommand({ TableName: tableName(), Key: { PK: key.PK, SK: 'APIKEY' }, UpdateExpression: 'SET usageKey = :u', ExpressionAttributeValues: { ':u': usageKey } }));
  return true;
}

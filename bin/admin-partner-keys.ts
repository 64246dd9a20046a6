/**
 * The partner key commands of the operator CLI (bin/admin.ts) that also key the partner stage (bin/partner-stage-keys.ts):
 * - `key-create`: the `rsk_` key (shown once, only its hash stored), then, with a usage plan, its API Gateway API key
 *   and usage-plan key, whose value is recorded as the key's `usageKey` (what the stage's authorizer names). When the
 *   stage part fails the new `rsk_` key is revoked again, so a key never exists half made.
 * - `key-revoke`: the `rsk_` key first (the authorizer refuses it from the next request), then its API key.
 * - `key-usage`: the usage plan's daily counts for the key (`GetUsage`).
 * Without a usage plan (`--usage-plan-id`, `--stack` or `STACK`) nothing is asked of API Gateway: a key made so works
 * on the main API only.
 */
import type { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import type { Scope } from '#api/types';
import { createStageKey, deleteStageKey, lastDays, removeStageKey, stageKeyUsage, type StageKey, type UsageDay } from './partner-stage-keys.ts';

/** The `parseArgs` options these commands read (merged into bin/admin.ts's). */
export const PARTNER_KEY_OPTIONS = {
  'usage-plan-id': { type: 'string' },
  stack: { type: 'string' },
  start: { type: 'string' },
  end: { type: 'string' },
} as const;

/** Days `key-usage` reports without `--start`/`--end`: the last week, today included (UTC). */
export const DEFAULT_USAGE_DAYS = 7;

/** What the commands need of the table (shared/db/partners.ts and api-keys.ts). */
export interface PartnerKeyStore {
  createPartnerKey(partnerId: string, name: string, permissions: Scope[]): Promise<{ keyId: string; value: string }>;
  setPartnerUsageKey(partnerId: string, keyId: string, usageKey: string): Promise<boolean>;
  revokeApiKey(partnerId: string, keyId: string): Promise<boolean>;
}

/** `key-create`'s answer. `key` is the only time the `rsk_` value is shown. */
export interface CreatedPartnerKey {
  keyId: string;
  key: string;
  permissions: Scope[];
  /** The partner stage's API key, or null without a usage plan. */
  stage: { usagePlanId: string; apiKeyId: string } | null;
  note: string;
}

/**
 * Creates partner key `name` of `partnerId` and, with `usagePlanId`, its stage API key.
 * @throws the API Gateway or table error, after revoking the new key (and deleting its API key, if made)
 */
export async function createPartnerKeyWithStage(
  store: PartnerKeyStore,
  apigw: () => APIGatewayClient,
  p: { partnerId: string; name: string; permissions: Scope[]; usagePlanId?: string },
): Promise<CreatedPartnerKey> {
  const created = await store.createPartnerKey(p.partnerId, p.name, p.permissions);
  const shown = 'Copy the key now: only its hash is stored and it cannot be shown again.';
  if (!p.usagePlanId) {
    return { keyId: created.keyId, key: created.value, permissions: p.permissions, stage: null, note: `${shown} No usage plan given (--usage-plan-id or --stack): the partner stage refuses this key.` };
  }
  let stageKey: StageKey | undefined;
  try {
    stageKey = await createStageKey(apigw(), { usagePlanId: p.usagePlanId, partnerId: p.partnerId, keyId: created.keyId, name: p.name });
    if (!(await store.setPartnerUsageKey(p.partnerId, created.keyId, stageKey.value))) throw new Error(`key ${created.keyId} vanished before its usage key was stored`);
  } catch (err) {
    await store.revokeApiKey(p.partnerId, created.keyId);
    if (stageKey) await removeStageKey(apigw(), { usagePlanId: p.usagePlanId, apiKeyId: stageKey.apiKeyId });
    throw err;
  }
  return { keyId: created.keyId, key: created.value, permissions: p.permissions, stage: { usagePlanId: p.usagePlanId, apiKeyId: stageKey.apiKeyId }, note: `${shown} Partners send it as Authorization: Bearer <key>.` };
}

/**
 * Revokes partner key `keyId` and, with `usagePlanId`, deletes its stage API key.
 * @returns null when the partner has no such key (nothing is asked of API Gateway then)
 */
export async function revokePartnerKeyWithStage(
  store: PartnerKeyStore,
  apigw: () => APIGatewayClient,
  p: { partnerId: string; keyId: string; usagePlanId?: string },
): Promise<{ keyId: string; revoked: true; stageApiKeyDeleted: string | null } | null> {
  if (!(await store.revokeApiKey(p.partnerId, p.keyId))) return null;
  const deleted = p.usagePlanId ? await deleteStageKey(apigw(), { usagePlanId: p.usagePlanId, keyId: p.keyId }) : undefined;
  return { keyId: p.keyId, revoked: true, stageApiKeyDeleted: deleted ?? null };
}

/**
 * The usage plan's daily counts for partner key `keyId`, from `start` to `end` (`YYYY-MM-DD`, UTC; default the last
 * `DEFAULT_USAGE_DAYS` days up to `now`), with their total.
 */
export async function partnerKeyUsage(
  apigw: APIGatewayClient,
  p: { keyId: string; usagePlanId: string; start?: string; end?: string; now: Date },
): Promise<{ keyId: string; usagePlanId: string; apiKeyId: string; startDate: string; endDate: string; total: number; days: UsageDay[] }> {
  const fallback = lastDays(DEFAULT_USAGE_DAYS, p.now);
  const startDate = p.start ?? fallback.startDate;
  const endDate = p.end ?? fallback.endDate;
  const { apiKeyId, days } = await stageKeyUsage(apigw, { usagePlanId: p.usagePlanId, keyId: p.keyId, startDate, endDate });
  return { keyId: p.keyId, usagePlanId: p.usagePlanId, apiKeyId, startDate, endDate, total: days.reduce((n, d) => n + d.used, 0), days };
}

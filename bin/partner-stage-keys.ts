/**
 * The partner stage's side of a partner key (`npm run admin -- partner key-create | key-revoke | key-usage`).
 *
 * The partner stage (lib/partner-api.ts) takes its API keys from its Lambda authorizer (`apiKeySource: AUTHORIZER`):
 * a partner sends only its `rsk_` key (`Authorization: Bearer rsk_…`), and the authorizer answers with the API
 * Gateway API key its usage plan meters (the partner key's stored `usageKey`: functions/partner-authorizer). So each
 * partner key gets its own API Gateway API key, named `tcs-partner-<keyId>`, with a value API Gateway generates
 * (never the `rsk_` value, which is stored only as its hash), joined to the usage plan as a usage-plan key. That
 * value is no credential on its own: the stage reads no `x-api-key` header.
 *
 * The usage plan is `--usage-plan-id`, or the stack's output `PartnerUsagePlanId` (lib/stack.ts) for `--stack`.
 */
import {
  type APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  DeleteUsagePlanKeyCommand,
  GetApiKeysCommand,
  GetUsageCommand,
} from '@aws-sdk/client-api-gateway';
import { type CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';

/** The stack output naming the partner usage plan. */
export const USAGE_PLAN_OUTPUT = 'PartnerUsagePlanId';

/** The API Gateway API key name of partner key `keyId`: `tcs-partner-<keyId>` (key ids are unique). */
export const stageKeyName = (keyId: string): string => `tcs-partner-${keyId}`;

/** The partner stage's API key of one partner key. */
export interface StageKey {
  /** API Gateway's id of the API key (`GetUsage`, `DeleteApiKey`). */
  readonly apiKeyId: string;
  /** Its value: what the authorizer returns as `usageIdentifierKey`. */
  readonly value: string;
}

/**
 * The usage plan id: `usagePlanId` when given, else the `PartnerUsagePlanId` output of stack `stackName`, else
 * undefined (no partner stage to key).
 * @throws Error when the stack has no such output (deployed without partner operations)
 */
export async function resolveUsagePlanId(cfn: CloudFormationClient, opts: { usagePlanId?: string; stackName?: string }): Promise<string | undefined> {
  if (opts.usagePlanId) return opts.usagePlanId;
  if (!opts.stackName) return undefined;
  const out = await cfn.send(new DescribeStacksCommand({ StackName: opts.stackName }));
  const value = out.Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === USAGE_PLAN_OUTPUT)?.OutputValue;
  if (!value) throw new Error(`stack ${opts.stackName} has no output ${USAGE_PLAN_OUTPUT} (is it deployed with the partner tier?)`);
  return value;
}

/**
 * Creates the API key of partner key `keyId` (enabled, `customerId` = the partner, tagged with both ids) and adds it to
 * the usage plan. When adding it fails, the API key is deleted again, so nothing is left half made.
 * @throws the API Gateway error (e.g. `NotFoundException` for an unknown usage plan)
 */
export async function createStageKey(apigw: APIGatewayClient, p: { usagePlanId: string; partnerId: string; keyId: string; name: string }): Promise<StageKey> {
  const created = await apigw.send(
    new CreateApiKeyCommand({
      name: stageKeyName(p.keyId),
      description: `Partner ${p.partnerId}, key ${p.keyId} (${p.name}): the partner stage's authorizer names it for the rsk_ key`,
      enabled: true,
      customerId: p.partnerId,
      tags: { partnerId: p.partnerId, partnerKeyId: p.keyId },
    }),
  );
  if (!created.id || !created.value) throw new Error('API Gateway returned an API key without id or value');
  try {
    await apigw.send(new CreateUsagePlanKeyCommand({ usagePlanId: p.usagePlanId, keyId: created.id, keyType: 'API_KEY' }));
  } catch (err) {
    await apigw.send(new DeleteApiKeyCommand({ apiKey: created.id }));
    throw err;
  }
  return { apiKeyId: created.id, value: created.value };
}

/** The API key id of partner key `keyId` (by its exact name), or undefined. */
export async function findStageKey(apigw: APIGatewayClient, keyId: string): Promise<string | undefined> {
  const name = stageKeyName(keyId);
  let position: string | undefined;
  do {
    // `nameQuery` matches names that start with it: compare exactly.
    const page = await apigw.send(new GetApiKeysCommand({ nameQuery: name, includeValues: false, limit: 500, ...(position && { position }) }));
    const hit = page.items?.find((k) => k.name === name);
    if (hit?.id) return hit.id;
    position = page.position;
  } while (position);
  return undefined;
}

/**
 * Removes partner key `keyId`'s API key from the usage plan (when one is known) and deletes it.
 * @returns the deleted API key's id, or undefined when the key has none (made by hand, or never keyed)
 */
export async function deleteStageKey(apigw: APIGatewayClient, p: { usagePlanId?: string; keyId: string }): Promise<string | undefined> {
  const apiKeyId = await findStageKey(apigw, p.keyId);
  if (apiKeyId) await removeStageKey(apigw, { usagePlanId: p.usagePlanId, apiKeyId });
  return apiKeyId;
}

/** Removes API key `apiKeyId` from the usage plan (when given) and deletes it. */
export async function removeStageKey(apigw: APIGatewayClient, p: { usagePlanId?: string; apiKeyId: string }): Promise<void> {
  if (p.usagePlanId) await apigw.send(new DeleteUsagePlanKeyCommand({ usagePlanId: p.usagePlanId, keyId: p.apiKeyId }));
  await apigw.send(new DeleteApiKeyCommand({ apiKey: p.apiKeyId }));
}

/** One UTC day of a key's usage: requests counted, and what the daily quota leaves. */
export interface UsageDay {
  /** `YYYY-MM-DD`. */
  readonly date: string;
  readonly used: number;
  readonly remaining: number;
}

/** `YYYY-MM-DD` as a UTC date. @throws Error when malformed */
function utcDate(text: string): Date {
  const d = new Date(`${text}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== text) throw new Error(`not a YYYY-MM-DD date: ${text}`);
  return d;
}

/**
 * Partner key `keyId`'s usage in the usage plan (`GetUsage`), one entry per day from `startDate` to `endDate`
 * (`YYYY-MM-DD`, UTC, inclusive; API Gateway keeps 90 days).
 * @throws Error when the key has no API key, or on a malformed date
 */
export async function stageKeyUsage(apigw: APIGatewayClient, p: { usagePlanId: string; keyId: string; startDate: string; endDate: string }): Promise<{ apiKeyId: string; days: UsageDay[] }> {
  const start = utcDate(p.startDate);
  if (utcDate(p.endDate) < start) throw new Error(`--end ${p.endDate} is before --start ${p.startDate}`);
  const apiKeyId = await findStageKey(apigw, p.keyId);
  if (!apiKeyId) throw Object.assign(new Error(`partner key ${p.keyId} has no API key on the partner stage (${stageKeyName(p.keyId)})`), { exitCode: 2 });
  const rows: number[][] = [];
  let position: string | undefined;
  do {
    const page = await apigw.send(new GetUsageCommand({ usagePlanId: p.usagePlanId, keyId: apiKeyId, startDate: p.startDate, endDate: p.endDate, ...(position && { position }) }));
    rows.push(...(page.items?.[apiKeyId] ?? []));
    position = page.position;
  } while (position);
  const days = rows.map(([used, remaining], i) => ({ date: new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10), used: used ?? 0, remaining: remaining ?? 0 }));
  return { apiKeyId, days };
}

/** The last `n` UTC days ending on `now`'s date, as `{startDate, endDate}`. */
export function lastDays(n: number, now: Date): { startDate: string; endDate: string } {
  const end = now.toISOString().slice(0, 10);
  const start = new Date(Date.parse(`${end}T00:00:00Z`) - (n - 1) * 86_400_000).toISOString().slice(0, 10);
  return { startDate: start, endDate: end };
}

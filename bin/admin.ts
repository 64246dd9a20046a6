/**
 * Operator CLI (`npm run admin -- ...`). Works on a deployed table when `TABLE_NAME` is set (AWS
 * credentials from the usual chain), otherwise on the local runtime's table: the running `npm start`'s
 * DynamoDB Local, or, when none runs, a DynamoDB Local it starts on `.data/` for the command.
 *
 *   org create --name NAME --owner-email EMAIL [--owner-first-name F] [--owner-last-name L] [--timezone ZONE]
 *   org set-timezone --org ORG_ID --timezone ZONE   (IANA, e.g. America/Denver; reminders created afterwards use it)
 *   key create --org ORG_ID [--scopes read,draft,actions] [--name NAME] [--user USER_ID]
 *   key revoke --org ORG_ID --key-id KEY_ID
 *   key list   --org ORG_ID
 *   mail-account add  --org ORG_ID --user USER_ID --kind ses|smtp --from ADDRESS [--name NAME] [--default]
 *                     [--smtp-host HOST --smtp-port 587 --smtp-user USER --secret tcs/mail/…]
 *   mail-account list --org ORG_ID [--user USER_ID]
 *   partner create --name NAME
 *   partner key-create --partner PARTNER_ID --name NAME [--permissions read,actions] [PLAN]   (the rsk_ value is shown
 *                     once; with PLAN also its API Gateway API key and usage-plan key on the partner stage)
 *   partner key-revoke --partner PARTNER_ID --key-id KEY_ID [PLAN]   (with PLAN also deletes its API key)
 *   partner key-usage  --partner PARTNER_ID --key-id KEY_ID PLAN [--start YYYY-MM-DD] [--end YYYY-MM-DD]   (GetUsage;
 *                     default the last 7 days)
 *   partner key-usage  --partner PARTNER_ID --key-id KEY_ID --usage-key VALUE   (records an API key made by hand in
 *                     the usage plan as the key's usage key, for keys made before key-create made them)
 *     PLAN: --usage-plan-id ID, or --stack NAME (or env STACK) whose output PartnerUsagePlanId names it
 *     (bin/admin-partner-keys.ts)
 *   oauth disconnect --user USER_ID --client CLIENT_ID   (revokes every token of that user and application)
 *   oauth backfill-sign-in   (once, after upgrading a table from before OAuth: members get their sign-in email entry)
 *   table backfill-indexes   (once, after deploying issue 24's indexes: keys to GSI4, open-task and open key-date
 *                     entries, search tokens; docs/indexes.md)
 *
 * Output is JSON on stdout; errors go to stderr with exit code 1 (usage) or 2 (not found).
 */
import { parseArgs } from 'node:util';
import type { Scope } from '#api/types';
import { connectLocalTable } from '#lib/local/runtime-file';
import { addMailAccount, listOrgMailAccounts, MAIL_ACCOUNT_OPTIONS } from './admin-mail-accounts.ts';
import { createPartnerKeyWithStage, PARTNER_KEY_OPTIONS, partnerKeyUsage, revokePartnerKeyWithStage } from './admin-partner-keys.ts';

const USAGE = `usage:
  npm run admin -- org create --name NAME --owner-email EMAIL [--owner-first-name F] [--owner-last-name L] [--timezone ZONE]
  npm run admin -- org set-timezone --org ORG_ID --timezone ZONE
  npm run admin -- key create --org ORG_ID [--scopes read,draft,actions] [--name NAME] [--user USER_ID]
  npm run admin -- key revoke --org ORG_ID --key-id KEY_ID
  npm run admin -- key list --org ORG_ID
  npm run admin -- mail-account add --org ORG_ID --user USER_ID --kind ses|smtp --from ADDRESS [--name NAME] [--default]
                   [--smtp-host HOST --smtp-port 587 --smtp-user USER --secret tcs/mail/NAME]
  npm run admin -- mail-account list --org ORG_ID [--user USER_ID]
  npm run admin -- partner create --name NAME
  npm run admin -- partner key-create --partner PARTNER_ID --name NAME [--permissions read,actions] [--usage-plan-id ID | --stack NAME]
  npm run admin -- partner key-revoke --partner PARTNER_ID --key-id KEY_ID [--usage-plan-id ID | --stack NAME]
  npm run admin -- partner key-usage --partner PARTNER_ID --key-id KEY_ID (--usage-plan-id ID | --stack NAME) [--start YYYY-MM-DD] [--end YYYY-MM-DD]
  npm run admin -- partner key-usage --partner PARTNER_ID --key-id KEY_ID --usage-key VALUE
  npm run admin -- oauth disconnect --user USER_ID --client CLIENT_ID
  npm run admin -- oauth backfill-sign-in
  npm run admin -- table backfill-indexes`;

const SCOPES: Scope[] = ['read', 'draft', 'actions'];

class UsageError extends Error {}

/** Points the repositories at a table (deployed with `TABLE_NAME`, else the local one); returns a cleanup function. */
async function connect(): Promise<() => Promise<void>> {
  if (process.env.TABLE_NAME && !process.env.LOCAL_RUNTIME) return async () => undefined;
  return connectLocalTable();
}

function parseScopes(raw: string | undefined): Scope[] {
  const list = (raw ?? 'read').split(',').map((s) => s.trim()).filter(Boolean);
  const bad = list.filter((s) => !SCOPES.includes(s as Scope));
  if (bad.length || !list.length) throw new UsageError(`--scopes must be a comma list of ${SCOPES.join(', ')}`);
  return list as Scope[];
}

/** `zone` when it is an IANA time zone the runtime knows (`America/Denver`). @throws UsageError otherwise */
function ianaZone(zone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    throw new UsageError(`--timezone must be an IANA time zone such as America/Chicago or America/Denver, not "${zone}"`);
  }
}

async function run(argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'owner-email': { type: 'string' },
      'owner-first-name': { type: 'string' },
      'owner-last-name': { type: 'string' },
      org: { type: 'string' },
      scopes: { type: 'string' },
      user: { type: 'string' },
      'key-id': { type: 'string' },
      partner: { type: 'string' },
      permissions: { type: 'string' },
      client: { type: 'string' },
      'usage-key': { type: 'string' },
      timezone: { type: 'string' },
      ...MAIL_ACCOUNT_OPTIONS,
      ...PARTNER_KEY_OPTIONS,
    },
  });
  const [noun, verb] = positionals;
  const need = (k: keyof typeof values) => {
    const v = values[k];
    if (typeof v !== 'string' || !v.trim()) throw new UsageError(`--${k} is required`);
    return v.trim();
  };
  const orgs = await import('#db/orgs');
  const keys = await import('#db/api-keys');
  if (noun === 'org' && verb === 'create') {
    const name = need('name');
    const email = need('owner-email');
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new UsageError('--owner-email must be an email address');
    const timezone = values.timezone === undefined ? undefined : ianaZone(need('timezone'));
    const org = await orgs.createOrganization({ name, ownerEmail: email, ownerFirstName: values['owner-first-name'], ownerLastName: values['owner-last-name'] });
    if (timezone) await orgs.setOrganizationTimezone(org.orgId, timezone);
    return { orgId: org.orgId, ownerUserId: org.ownerUserId, timezone: timezone ?? orgs.DEFAULT_ORG_TIMEZONE, keys: org.keys };
  }
  if (noun === 'org' && verb === 'set-timezone') {
    const orgId = need('org');
    const timezone = ianaZone(need('timezone'));
    if (!(await orgs.getOrganization(orgId))) throw Object.assign(new Error(`organization ${orgId} not found`), { exitCode: 2 });
    await orgs.setOrganizationTimezone(orgId, timezone);
    return { orgId, timezone };
  }
  if (noun === 'key') {
    const orgId = need('org');
    const org = await orgs.getOrganization(orgId);
    if (!org) throw Object.assign(new Error(`organization ${orgId} not found`), { exitCode: 2 });
    if (verb === 'create') {
      const scopes = parseScopes(values.scopes);
      const userId = values.user ?? org.ownerUserId;
      const created = await keys.createApiKey({ orgId, userId, name: values.name ?? `cli key (${scopes.join('+')})`, scopes });
      return { keyId: created.keyId, key: created.value, scopes, userId };
    }
    if (verb === 'revoke') {
      const keyId = need('key-id');
      if (!(await keys.revokeApiKey(orgId, keyId))) throw Object.assign(new Error(`key ${keyId} not found`), { exitCode: 2 });
      return { keyId, revoked: true };
    }
    if (verb === 'list') {
      return (await keys.listApiKeys(orgId)).map(({ keyId, name, scopes, displayPrefix, createdAt, revokedAt, userId }) => ({ keyId, name, scopes, displayPrefix, userId, createdAt, revokedAt: revokedAt ?? null }));
    }
  }
  if (noun === 'partner') {
    const partners = await import('#db/partners');
    if (verb === 'create') return partners.createPartner(need('name'));
    const partnerId = need('partner');
    if (!(await partners.getPartner(partnerId))) throw Object.assign(new Error(`partner ${partnerId} not found`), { exitCode: 2 });
    const store = { createPartnerKey: partners.createPartnerKey, setPartnerUsageKey: partners.setPartnerUsageKey, revokeApiKey: keys.revokeApiKey };
    const { APIGatewayClient } = await import('@aws-sdk/client-api-gateway');
    let apigw: InstanceType<typeof APIGatewayClient> | undefined;
    const apigwClient = () => (apigw ??= new APIGatewayClient({}));
    const usagePlanId = async () => {
      const { CloudFormationClient } = await import('@aws-sdk/client-cloudformation');
      const { resolveUsagePlanId } = await import('./partner-stage-keys.ts');
      return resolveUsagePlanId(new CloudFormationClient({}), { usagePlanId: values['usage-plan-id'], stackName: values.stack ?? process.env.STACK });
    };
    if (verb === 'key-create') {
      const permissions = (values.permissions ?? 'read,actions').split(',').map((s) => s.trim()).filter(Boolean);
      const bad = permissions.filter((p) => !partners.PARTNER_PERMISSIONS.includes(p as Scope));
      if (bad.length || !permissions.length) throw new UsageError(`--permissions must be a comma list of ${partners.PARTNER_PERMISSIONS.join(', ')}`);
      return createPartnerKeyWithStage(store, apigwClient, { partnerId, name: need('name'), permissions: permissions as Scope[], usagePlanId: await usagePlanId() });
    }
    if (verb === 'key-usage' && values['usage-key'] !== undefined) {
      const keyId = need('key-id');
      if (!(await partners.setPartnerUsageKey(partnerId, keyId, need('usage-key')))) throw Object.assign(new Error(`key ${keyId} not found`), { exitCode: 2 });
      return { keyId, usageKey: 'set' };
    }
    if (verb === 'key-usage') {
      const keyId = need('key-id');
      const plan = await usagePlanId();
      if (!plan) throw new UsageError('key-usage needs --usage-plan-id or --stack');
      if (!(await keys.listApiKeys(partnerId)).some((k) => k.keyId === keyId)) throw Object.assign(new Error(`key ${keyId} not found`), { exitCode: 2 });
      return partnerKeyUsage(apigwClient(), { keyId, usagePlanId: plan, start: values.start, end: values.end, now: new Date() });
    }
    if (verb === 'key-revoke') {
      const keyId = need('key-id');
      const revoked = await revokePartnerKeyWithStage(store, apigwClient, { partnerId, keyId, usagePlanId: await usagePlanId() });
      if (!revoked) throw Object.assign(new Error(`key ${keyId} not found`), { exitCode: 2 });
      return revoked;
    }
  }
  if (noun === 'oauth' && verb === 'backfill-sign-in') return { membersUpdated: await orgs.backfillMemberEmailIndex() };
  if (noun === 'table' && verb === 'backfill-indexes') return (await import('#db/index-backfill')).backfillIndexes();
  if (noun === 'oauth' && verb === 'disconnect') {
    const { revokeUserClient } = await import('#use-cases/oauth');
    return { revokedGrants: await revokeUserClient(need('user'), need('client'), new Date()) };
  }
  if (noun === 'mail-account') {
    const orgId = need('org');
    if (!(await orgs.getOrganization(orgId))) throw Object.assign(new Error(`organization ${orgId} not found`), { exitCode: 2 });
    const fail = (message: string) => new UsageError(message);
    if (verb === 'add') return addMailAccount(orgId, values, fail);
    if (verb === 'list') return listOrgMailAccounts(orgId, values.user);
  }
  throw new UsageError(`unknown command: ${positionals.join(' ') || '(none)'}`);
}

async function main() {
  let cleanup: () => Promise<void> = async () => undefined;
  try {
    cleanup = await connect();
    const out = await run(process.argv.slice(2));
    console.log(JSON.stringify(out, null, 2));
  } catch (err) {
    const usage = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    console.error(`error: ${(err as Error).message}${usage ? `\n${USAGE}` : ''}`);
    process.exitCode = usage ? 1 : ((err as { exitCode?: number }).exitCode ?? 1);
  } finally {
    await cleanup();
  }
}

void main();

/**
 * The partner key commands against a mocked API Gateway (bin/admin-partner-keys.ts, bin/partner-stage-keys.ts): the
 * exact commands `key-create`, `key-revoke` and `key-usage` send, what the table gets (only the usage key; the `rsk_`
 * value is the store's to hash), and that a failure leaves no half-made key.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  DeleteUsagePlanKeyCommand,
  GetApiKeysCommand,
  GetUsageCommand,
  NotFoundException,
} from '@aws-sdk/client-api-gateway';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import type { Scope } from '#api/types';
import { createPartnerKeyWithStage, partnerKeyUsage, revokePartnerKeyWithStage, type PartnerKeyStore } from '../../bin/admin-partner-keys.ts';
import { resolveUsagePlanId, stageKeyName, USAGE_PLAN_OUTPUT } from '../../bin/partner-stage-keys.ts';

const apigwMock = mockClient(APIGatewayClient);
const cfnMock = mockClient(CloudFormationClient);
afterAll(() => {
  apigwMock.restore();
  cfnMock.restore();
});

const PLAN = 'plan123';
const PARTNER = 'prt_acme';
const API_KEY_ID = 'k9x8y7z6';
const STAGE_VALUE = 'Gk3lYf0aW9b8c7d6e5f4g3h2i1j0kLmNoPqRsTuV';

/** An in-memory table of partner keys: what the commands read and write through `PartnerKeyStore`. */
function memoryStore() {
  const keys = new Map<string, { partnerId: string; name: string; permissions: Scope[]; revoked: boolean; usageKey?: string }>();
  let n = 0;
  const store: PartnerKeyStore = {
    createPartnerKey: async (partnerId, name, permissions) => {
      const keyId = `key${++n}`;
      keys.set(keyId, { partnerId, name, permissions, revoked: false });
      return { keyId, value: `rsk_secret${n}` };
    },
    setPartnerUsageKey: async (partnerId, keyId, usageKey) => {
      const k = keys.get(keyId);
      if (!k || k.partnerId !== partnerId) return false;
      k.usageKey = usageKey;
      return true;
    },
    revokeApiKey: async (partnerId, keyId) => {
      const k = keys.get(keyId);
      if (!k || k.partnerId !== partnerId) return false;
      k.revoked = true;
      return true;
    },
  };
  return { store, keys };
}

const client = () => new APIGatewayClient({ region: 'us-east-1' });

beforeEach(() => {
  apigwMock.reset();
  cfnMock.reset();
});

describe('partner key-create', () => {
  it('creates the API key and its usage-plan key, and stores its value as the usage key (not the rsk_ value)', async () => {
    apigwMock.on(CreateApiKeyCommand).resolves({ id: API_KEY_ID, value: STAGE_VALUE, name: stageKeyName('key1') });
    apigwMock.on(CreateUsagePlanKeyCommand).resolves({ id: API_KEY_ID, type: 'API_KEY' });
    const { store, keys } = memoryStore();

    const out = await createPartnerKeyWithStage(store, client, { partnerId: PARTNER, name: 'CRM sync', permissions: ['read'], usagePlanId: PLAN });

    expect(apigwMock).toHaveReceivedCommandExactlyOnceWith(CreateApiKeyCommand, {
      name: 'tcs-partner-key1',
      description: `Partner ${PARTNER}, key key1 (CRM sync): the partner stage's authorizer names it for the rsk_ key`,
      enabled: true,
      customerId: PARTNER,
      tags: { partnerId: PARTNER, partnerKeyId: 'key1' },
    });
    expect(apigwMock.commandCalls(CreateApiKeyCommand)[0].args[0].input).not.toHaveProperty('value'); // API Gateway generates it
    expect(apigwMock).toHaveReceivedCommandExactlyOnceWith(CreateUsagePlanKeyCommand, { usagePlanId: PLAN, keyId: API_KEY_ID, keyType: 'API_KEY' });
    expect(apigwMock.calls()).toHaveLength(2);
    expect(keys.get('key1')).toMatchObject({ usageKey: STAGE_VALUE, revoked: false });
    expect(out).toMatchObject({ keyId: 'key1', key: 'rsk_secret1', permissions: ['read'], stage: { usagePlanId: PLAN, apiKeyId: API_KEY_ID } });
    expect(JSON.stringify(out)).not.toContain(STAGE_VALUE);
  });

  it('deletes the API key and revokes the new rsk_ key when the usage plan refuses it', async () => {
    apigwMock.on(CreateApiKeyCommand).resolves({ id: API_KEY_ID, value: STAGE_VALUE });
    apigwMock.on(CreateUsagePlanKeyCommand).rejects(new NotFoundException({ message: 'Invalid Usage Plan ID specified', $metadata: {} }));
    apigwMock.on(DeleteApiKeyCommand).resolves({});
    const { store, keys } = memoryStore();

    await expect(createPartnerKeyWithStage(store, client, { partnerId: PARTNER, name: 'CRM', permissions: ['read'], usagePlanId: 'nope' })).rejects.toThrow(/Invalid Usage Plan/);

    expect(apigwMock).toHaveReceivedCommandExactlyOnceWith(DeleteApiKeyCommand, { apiKey: API_KEY_ID });
    expect(keys.get('key1')).toMatchObject({ revoked: true });
    expect(keys.get('key1')?.usageKey).toBeUndefined();
  });

  it('asks nothing of API Gateway without a usage plan, and says the stage refuses the key', async () => {
    const { store, keys } = memoryStore();
    const out = await createPartnerKeyWithStage(store, client, { partnerId: PARTNER, name: 'CRM', permissions: ['read', 'actions'] });
    expect(apigwMock.calls()).toHaveLength(0);
    expect(out.stage).toBeNull();
    expect(out.note).toMatch(/partner stage refuses/);
    expect(keys.get('key1')?.revoked).toBe(false);
  });
});

describe('partner key-revoke', () => {
  it('revokes the rsk_ key, then finds its API key by exact name and deletes the usage-plan key and the API key', async () => {
    apigwMock.on(GetApiKeysCommand).resolves({
      items: [
        { id: 'other', name: 'tcs-partner-key10' }, // `nameQuery` matches by prefix
        { id: API_KEY_ID, name: 'tcs-partner-key1' },
      ],
    });
    apigwMock.on(DeleteUsagePlanKeyCommand).resolves({});
    apigwMock.on(DeleteApiKeyCommand).resolves({});
    const { store, keys } = memoryStore();
    await store.createPartnerKey(PARTNER, 'CRM', ['read']);

    const out = await revokePartnerKeyWithStage(store, client, { partnerId: PARTNER, keyId: 'key1', usagePlanId: PLAN });

    expect(keys.get('key1')?.revoked).toBe(true);
    expect(apigwMock).toHaveReceivedCommandExactlyOnceWith(GetApiKeysCommand, { nameQuery: 'tcs-partner-key1', includeValues: false, limit: 500 });
    expect(apigwMock).toHaveReceivedCommandExactlyOnceWith(DeleteUsagePlanKeyCommand, { usagePlanId: PLAN, keyId: API_KEY_ID });
    expect(apigwMock).toHaveReceivedCommandExactlyOnceWith(DeleteApiKeyCommand, { apiKey: API_KEY_ID });
    expect(out).toEqual({ keyId: 'key1', revoked: true, stageApiKeyDeleted: API_KEY_ID });
  });

  it('follows GetApiKeys pages, and reports a key that had no API key', async () => {
    apigwMock
      .on(GetApiKeysCommand)
      .resolvesOnce({ items: [{ id: 'a', name: 'tcs-partner-key10' }], position: 'p2' })
      .resolvesOnce({ items: [{ id: 'b', name: 'tcs-partner-key11' }] });
    const { store } = memoryStore();
    await store.createPartnerKey(PARTNER, 'CRM', ['read']);
    const out = await revokePartnerKeyWithStage(store, client, { partnerId: PARTNER, keyId: 'key1', usagePlanId: PLAN });
    expect(apigwMock).toHaveReceivedCommandTimes(GetApiKeysCommand, 2);
    expect(apigwMock).toHaveReceivedNthCommandWith(GetApiKeysCommand, 2, { nameQuery: 'tcs-partner-key1', includeValues: false, limit: 500, position: 'p2' });
    expect(apigwMock).not.toHaveReceivedCommand(DeleteApiKeyCommand);
    expect(out).toEqual({ keyId: 'key1', revoked: true, stageApiKeyDeleted: null });
  });

  it("touches nothing for another partner's key", async () => {
    const { store, keys } = memoryStore();
    await store.createPartnerKey('prt_other', 'CRM', ['read']);
    expect(await revokePartnerKeyWithStage(store, client, { partnerId: PARTNER, keyId: 'key1', usagePlanId: PLAN })).toBeNull();
    expect(apigwMock.calls()).toHaveLength(0);
    expect(keys.get('key1')?.revoked).toBe(false);
  });
});

describe('partner key-usage', () => {
  it("reads GetUsage for the key's API key and dates each day", async () => {
    apigwMock.on(GetApiKeysCommand).resolves({ items: [{ id: API_KEY_ID, name: 'tcs-partner-key1' }] });
    apigwMock.on(GetUsageCommand).resolves({ usagePlanId: PLAN, startDate: '2026-11-20', endDate: '2026-11-22', items: { [API_KEY_ID]: [[120, 49_880], [0, 50_000], [3_400, 46_600]] } });

    const out = await partnerKeyUsage(client(), { keyId: 'key1', usagePlanId: PLAN, start: '2026-11-20', end: '2026-11-22', now: new Date('2026-11-26T12:00:00Z') });

    expect(apigwMock).toHaveReceivedCommandExactlyOnceWith(GetUsageCommand, { usagePlanId: PLAN, keyId: API_KEY_ID, startDate: '2026-11-20', endDate: '2026-11-22' });
    expect(out).toEqual({
      keyId: 'key1',
      usagePlanId: PLAN,
      apiKeyId: API_KEY_ID,
      startDate: '2026-11-20',
      endDate: '2026-11-22',
      total: 3_520,
      days: [
        { date: '2026-11-20', used: 120, remaining: 49_880 },
        { date: '2026-11-21', used: 0, remaining: 50_000 },
        { date: '2026-11-22', used: 3_400, remaining: 46_600 },
      ],
    });
  });

  it('defaults to the last 7 UTC days, and refuses bad dates before calling AWS', async () => {
    apigwMock.on(GetApiKeysCommand).resolves({ items: [{ id: API_KEY_ID, name: 'tcs-partner-key1' }] });
    apigwMock.on(GetUsageCommand).resolves({ items: {} });
    const out = await partnerKeyUsage(client(), { keyId: 'key1', usagePlanId: PLAN, now: new Date('2026-03-02T23:59:00Z') });
    expect(apigwMock).toHaveReceivedCommandWith(GetUsageCommand, { startDate: '2026-02-24', endDate: '2026-03-02' });
    expect(out.days).toEqual([]);
    apigwMock.reset();
    await expect(partnerKeyUsage(client(), { keyId: 'key1', usagePlanId: PLAN, start: '2026-02-30', now: new Date() })).rejects.toThrow(/YYYY-MM-DD/);
    await expect(partnerKeyUsage(client(), { keyId: 'key1', usagePlanId: PLAN, start: '2026-03-05', end: '2026-03-01', now: new Date() })).rejects.toThrow(/before/);
    expect(apigwMock.calls()).toHaveLength(0);
  });

  it('fails with exit code 2 for a key without an API key', async () => {
    apigwMock.on(GetApiKeysCommand).resolves({ items: [] });
    await expect(partnerKeyUsage(client(), { keyId: 'key1', usagePlanId: PLAN, now: new Date() })).rejects.toMatchObject({ exitCode: 2 });
    expect(apigwMock).not.toHaveReceivedCommand(GetUsageCommand);
  });
});

describe('usage plan id', () => {
  const cfn = () => new CloudFormationClient({ region: 'us-east-1' });

  it(`is --usage-plan-id, else the stack's ${USAGE_PLAN_OUTPUT} output, else none`, async () => {
    expect(await resolveUsagePlanId(cfn(), { usagePlanId: 'given', stackName: 'tcs-prod' })).toBe('given');
    expect(cfnMock.calls()).toHaveLength(0);
    cfnMock.on(DescribeStacksCommand).resolves({
      Stacks: [{ StackName: 'tcs-prod', CreationTime: new Date(), StackStatus: 'UPDATE_COMPLETE', Outputs: [{ OutputKey: 'ApiUrl', OutputValue: 'https://x' }, { OutputKey: USAGE_PLAN_OUTPUT, OutputValue: 'abc123' }] }],
    });
    expect(await resolveUsagePlanId(cfn(), { stackName: 'tcs-prod' })).toBe('abc123');
    expect(cfnMock).toHaveReceivedCommandExactlyOnceWith(DescribeStacksCommand, { StackName: 'tcs-prod' });
    expect(await resolveUsagePlanId(cfn(), {})).toBeUndefined();
  });

  it('fails for a stack without the partner tier', async () => {
    cfnMock.on(DescribeStacksCommand).resolves({ Stacks: [{ StackName: 'tcs-dev', CreationTime: new Date(), StackStatus: 'CREATE_COMPLETE', Outputs: [] }] });
    await expect(resolveUsagePlanId(cfn(), { stackName: 'tcs-dev' })).rejects.toThrow(/no output PartnerUsagePlanId/);
  });
});

/**
 * The organization-settings use case (shared/use-cases/org-settings.ts) against a mocked DynamoDB document client
 * (aws-sdk-client-mock): who may change the branding, what is stored (normalized accent, parsed logo URL, a blank
 * display name cleared) in one conditional `UpdateItem`, and the 422 fields of values the pages could not show.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Principal } from '#db/api-keys';
import { changeOrgSettings, pageBranding } from '#use-cases/org-settings';
import { Forbidden, InvalidInput } from '#domain/errors';

const ddb = mockClient(DynamoDBDocumentClient);
const principal = { kind: 'org', credential: 'key', orgId: 'o1', userId: 'u1', scopes: ['read', 'actions'] } as unknown as Principal;
const now = new Date('2026-11-27T02:00:00Z');
const member = (role: string) => ddb.on(GetCommand, { Key: { PK: 'ORG#o1', SK: 'USER#u1' } }).resolves({ Item: { userId: 'u1', email: 'd@x.test', role, createdAt: '' } });

beforeEach(() => {
  ddb.reset();
  process.env.TABLE_NAME = 'tbl';
});
afterAll(() => ddb.restore());

describe('changeOrgSettings', () => {
  it('an admin changes the branding in one conditional update: accent normalized, blank name cleared', async () => {
    member('admin');
    ddb.on(UpdateCommand).resolves({ Attributes: { orgId: 'o1', name: 'W', displayName: null, logoUrl: 'https://cdn.example/l.png', accentColor: '#aabbcc', settingsUpdatedAt: now.toISOString() } });
    const out = await changeOrgSettings(principal, { displayName: '   ', accentColor: '#ABC', logoUrl: 'https://CDN.example/l.png' }, now);
    expect(out).toEqual({ organizationId: 'o1', name: 'W', displayName: null, logoUrl: 'https://cdn.example/l.png', accentColor: '#aabbcc', updatedAt: now.toISOString() });
    const input = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(input).toMatchObject({ TableName: 'tbl', Key: { PK: 'ORG#o1', SK: 'ORG' }, ConditionExpression: 'attribute_exists(PK)' });
    const stored = Object.fromEntries(Object.entries(input.ExpressionAttributeNames!).map(([k, name]) => [name, input.ExpressionAttributeValues![k.replace('#f', ':v')]]));
    expect(stored).toEqual({ displayName: null, accentColor: '#aabbcc', logoUrl: 'https://cdn.example/l.png', settingsUpdatedAt: now.toISOString() });
  });

  it('an agent is refused and nothing is written', async () => {
    member('agent');
    await expect(changeOrgSettings(principal, { accentColor: '#000000' }, now)).rejects.toBeInstanceOf(Forbidden);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('names each value the pages could not show', async () => {
    member('owner');
    const err = await changeOrgSettings(principal, { accentColor: '#fff;}', logoUrl: 'https://u:p@cdn.example/l.png' }, now).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidInput);
    expect(Object.keys((err as InvalidInput).fields).sort()).toEqual(['accentColor', 'logoUrl']);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });
});

describe('pageBranding', () => {
  it('falls back to the workspace name and default accent; a gone organization has none', async () => {
    ddb.on(GetCommand, { Key: { PK: 'ORG#o1', SK: 'ORG' } }).resolves({ Item: { orgId: 'o1', name: 'Hill Country Realty' } });
    expect(await pageBranding('o1')).toEqual({ displayName: 'Hill Country Realty', logoUrl: null, accentColor: '#1f5fbf' });
    ddb.on(GetCommand, { Key: { PK: 'ORG#o2', SK: 'ORG' } }).resolves({});
    expect(await pageBranding('o2')).toBeUndefined();
  });
});

/**
 * `backfillMemberEmailIndex` (shared/db/orgs.ts) on DynamoDB Local: member items written before OAuth sign-in (no
 * GSI2 email entry) are found by email after it runs, members written since are untouched, and a second run does
 * nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { addUser, backfillMemberEmailIndex, createOrganization, membershipsByEmail } from '#db/orgs';
import { useTestTable } from '../support/test-table.ts';

/** Makes a member item look as it was written before OAuth: its GSI2 entry removed (found by Scan, keys as stored). */
async function stripEmailIndex(userId: string): Promise<void> {
  const out = await db().send(new ScanCommand({ TableName: tableName(), FilterExpression: 'userId = :u AND entity = :e', ExpressionAttributeValues: { ':u': userId, ':e': 'User' } }));
  expect(out.Items).toHaveLength(1);
  const { PK, SK } = out.Items![0];
  await db().send(new UpdateCommand({ TableName: tableName(), Key: { PK, SK }, UpdateExpression: 'REMOVE GSI2PK, GSI2SK' }));
}

beforeAll(async () => {
  await useTestTable();
});

describe('backfillMemberEmailIndex', () => {
  it('indexes members written before OAuth, leaves the others alone, and finds nothing on a second run', async () => {
    const org = await createOrganization({ name: 'Legacy Realty', ownerEmail: 'Owner@Legacy.example' });
    const agent = await addUser(org.orgId, { email: 'agent@legacy.example', firstName: 'Al', lastName: 'Agent', role: 'agent' });
    const recent = await addUser(org.orgId, { email: 'recent@legacy.example', firstName: 'Rae', lastName: 'Cent', role: 'agent' });
    await stripEmailIndex(org.ownerUserId);
    await stripEmailIndex(agent.userId);
    expect(await membershipsByEmail('owner@legacy.example')).toEqual([]);
    expect(await membershipsByEmail('agent@legacy.example')).toEqual([]);

    expect(await backfillMemberEmailIndex()).toBe(2);
    expect((await membershipsByEmail('owner@legacy.example')).map((m) => [m.orgId, m.user.userId, m.user.role])).toEqual([[org.orgId, org.ownerUserId, 'owner']]);
    expect((await membershipsByEmail('agent@legacy.example')).map((m) => m.user.userId)).toEqual([agent.userId]);
    expect((await membershipsByEmail('recent@legacy.example')).map((m) => m.user.userId)).toEqual([recent.userId]);

    expect(await backfillMemberEmailIndex()).toBe(0);
  });
});

/**
 * The partner tier end to end (spec "Partner organizations", "Authentication"): `rsk_` keys minted by the operator
 * CLI (value shown once, only a hash stored), the 7 operations, the owner and seats invited by email (local SMTP),
 * permissions, credential crossing (each credential type on each kind of route), and isolation: another partner's
 * organization, or one no partner provisioned, is 404 and never data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { createOrganization } from '#db/orgs';
import { createPartner, createPartnerKey } from '#db/partners';
import { createTransaction } from '#use-cases/create-transaction';
import { writeRuntimeFile } from '#lib/local/runtime-file';
import { storedMail } from '#lib/local/smtp-sink';
import { until } from '#test/support/webhook-receiver';
import { runCli } from '../support/cli.ts';
import { startTestRuntime, type TestRuntime } from '../support/runtime-harness.ts';
import { assertConforms } from '../support/openapi-conformance.ts';
import { handler as authorizer } from '#functions/partner-authorizer/handler';
import { localApiHandlers } from '#lib/local/group-handlers';
import { revokeApiKey } from '#db/api-keys';
import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';


let t: TestRuntime;
let partnerKey: string;
let readOnlyKey: string;
let otherPartnerKey: string;
let partnerId: string;
let plainOrg: Awaited<ReturnType<typeof createOrganization>>;

const cli = (args: string[]) => runCli('admin', args, t.rt.dataDir);

async function call(method: string, path: string, key?: string, body?: unknown) {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(t.rt.baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  await assertConforms({ method, path, status: res.status, headers: res.headers, text });
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

const newOwner = () => ({ email: `owner+${randomUUID().slice(0, 8)}@lonestar.example`, firstName: 'Ava', lastName: 'Nguyen' });

beforeAll(async () => {
  t = await startTestRuntime('partner');
  writeRuntimeFile(t.rt.dataDir, { endpoint: t.rt.dynamoEndpoint, tableName: process.env.TABLE_NAME!, pid: process.pid, baseUrl: t.rt.baseUrl });
  const created = await cli(['partner', 'create', '--name', 'Lone Star Resellers']);
  expect(created.code, created.stderr).toBe(0);
  partnerId = JSON.parse(created.stdout).partnerId;
  const minted = await cli(['partner', 'key-create', '--partner', partnerId, '--name', 'provisioning system', '--permissions', 'read,actions']);
  expect(minted.code, minted.stderr).toBe(0);
  partnerKey = JSON.parse(minted.stdout).key;
  readOnlyKey = (await createPartnerKey(partnerId, 'dashboard', ['read'])).value;
  otherPartnerKey = (await createPartnerKey((await createPartner('Other Partner')).partnerId, 'other', ['read', 'actions'])).value;
  plainOrg = await createOrganization({ name: 'Direct Customer Realty', ownerEmail: `direct+${randomUUID().slice(0, 8)}@example.test` });
}, 120_000);
afterAll(() => t?.close());

describe('partner keys from the operator CLI', () => {
  it('the value is rsk_ and shown once; only its SHA-256 is stored', async () => {
    expect(partnerKey).toMatch(/^rsk_[A-Za-z0-9_-]{43}$/);
    const items = (await db().send(new ScanCommand({ TableName: tableName() }))).Items ?? [];
    expect(JSON.stringify(items)).not.toContain(partnerKey);
    expect(JSON.stringify(items)).not.toContain(partnerKey.slice(4));
  });
});

describe('the 7 operations', () => {
  let orgId: string;
  let ownerEmail: string;

  it('POST /orgs provisions an organization and emails the owner an invitation; GET /orgs lists it', async () => {
    const owner = newOwner();
    ownerEmail = owner.email;
    const r = await call('POST', '/api/v1/orgs', partnerKey, { name: 'Lone Star Closings', owner });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ name: 'Lone Star Closings', plan: 'standard', owner: { email: owner.email, firstName: 'Ava', lastName: 'Nguyen', role: 'owner' } });
    expect(JSON.stringify(r.body)).not.toMatch(/mcp_at_/);
    orgId = r.body.data.orgId;
    // The invitation is queued with the organization; the send worker emails it.
    await until('the invitation', () => storedMail(t.rt.messaging.smtp.directory).find((m) => m.to.includes(owner.email)), 10_000);
    const mail = storedMail(t.rt.messaging.smtp.directory).filter((m) => m.to.includes(owner.email));
    expect(mail).toHaveLength(1);
    expect(mail[0].raw.toString('utf8')).toMatch(/Subject: You are invited to Lone Star Closings/);

    const list = await call('GET', '/api/v1/orgs?limit=1&offset=0', partnerKey);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ limit: 1, offset: 0, hasMore: false, data: [{ orgId, name: 'Lone Star Closings' }] });
    expect((await call('GET', '/api/v1/orgs', otherPartnerKey)).body.data).toEqual([]);
  });

  it('GET /orgs/{orgId} and its entitlements (plan, seats, AI pool)', async () => {
    expect((await call('GET', `/api/v1/orgs/${orgId}`, partnerKey)).body.data).toMatchObject({ orgId, owner: { email: ownerEmail } });
    const e = await call('GET', `/api/v1/orgs/${orgId}/entitlements`, readOnlyKey);
    expect(e.status).toBe(200);
    expect(e.body.data).toMatchObject({ orgId, plan: 'standard', seats: { limit: 10, used: 1, available: 9 }, aiPool: { limit: 500, used: 0, remaining: 500, state: 'available' } });
  });

  it('GET /orgs/{orgId}/summary counts active deals and tasks due, and carries no deal data', async () => {
    const empty = await call('GET', `/api/v1/orgs/${orgId}/summary`, partnerKey);
    expect(empty.body.data).toEqual({ orgId, activeDeals: 0, tasksDue: { overdue: 0, next7Days: 0 }, lastActivityAt: null });
    const org = (await call('GET', `/api/v1/orgs/${orgId}`, partnerKey)).body.data;
    await createTransaction({ orgId, userId: org.owner.userId }, { propertyAddress: { street: '12 Secret Hollow Rd', city: 'Austin', state: 'TX', zip: '78704' }, transactionType: 'Purchase', side: 'Buyer', status: 'Under Contract' });
    const s = await call('GET', `/api/v1/orgs/${orgId}/summary`, partnerKey);
    expect(s.body.data.activeDeals).toBe(1);
    expect(s.body.data.lastActivityAt).toEqual(expect.any(String));
    expect(JSON.stringify(s.body)).not.toContain('Secret Hollow');
  });

  it('POST /orgs/{orgId}/users invites a seat (emailed); a duplicate or an owner role is 422; DELETE removes it', async () => {
    const email = `agent+${randomUUID().slice(0, 8)}@lonestar.example`;
    const r = await call('POST', `/api/v1/orgs/${orgId}/users`, partnerKey, { email, firstName: 'Ravi', lastName: null, role: 'coordinator' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ email, firstName: 'Ravi', role: 'coordinator' });
    expect(await until('the seat invitation', () => storedMail(t.rt.messaging.smtp.directory).some((m) => m.to.includes(email)) || undefined, 10_000)).toBe(true);
    expect((await call('POST', `/api/v1/orgs/${orgId}/users`, partnerKey, { email, firstName: null, lastName: null, role: null })).status).toBe(422);
    expect((await call('POST', `/api/v1/orgs/${orgId}/users`, partnerKey, { email: `x${email}`, firstName: null, lastName: null, role: 'owner' })).body.error.fields).toHaveProperty('role');
    expect((await call('GET', `/api/v1/orgs/${orgId}/entitlements`, partnerKey)).body.data.seats.used).toBe(2);

    const del = await call('DELETE', `/api/v1/orgs/${orgId}/users/${r.body.data.userId}`, partnerKey);
    expect(del.body).toEqual({ deleted: true, userId: r.body.data.userId });
    expect((await call('DELETE', `/api/v1/orgs/${orgId}/users/${r.body.data.userId}`, partnerKey)).status).toBe(404);
    const owner = (await call('GET', `/api/v1/orgs/${orgId}`, partnerKey)).body.data.owner;
    expect((await call('DELETE', `/api/v1/orgs/${orgId}/users/${owner.userId}`, partnerKey)).status).toBe(422);
  });

  it('a read-only partner key reads but cannot provision (403 insufficient_scope)', async () => {
    expect((await call('GET', '/api/v1/orgs', readOnlyKey)).status).toBe(200);
    const r = await call('POST', '/api/v1/orgs', readOnlyKey, { name: 'Nope', owner: newOwner() });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('insufficient_scope');
  });

  it("isolation: another partner's organization and an organization no partner provisioned are 404 on every operation, with no data", async () => {
    const userId = randomUUID();
    for (const [target, key] of [[orgId, otherPartnerKey], [plainOrg.orgId, partnerKey]] as const) {
      for (const [method, path, body] of [
        ['GET', `/api/v1/orgs/${target}`],
        ['GET', `/api/v1/orgs/${target}/entitlements`],
        ['GET', `/api/v1/orgs/${target}/summary`],
        ['POST', `/api/v1/orgs/${target}/users`, { email: 'intruder@example.test', firstName: null, lastName: null, role: null }],
        ['DELETE', `/api/v1/orgs/${target}/users/${userId}`],
      ] as const) {
        const r = await call(method, path, key, body);
        expect(r.status, `${method} ${path}`).toBe(404);
        expect(Object.keys(r.body)).toEqual(['error']);
        expect(r.body.error.code).toBe('not_found');
      }
    }
  });
});

describe('credential crossing', () => {
  it('a partner key is 401 on every non-partner route; org keys are 401 on partner routes', async () => {
    for (const [method, path] of [['GET', '/api/v1/health'], ['GET', '/api/v1/transactions'], [`GET`, `/api/v1/transactions/${randomUUID()}`], ['POST', '/api/v1/webhooks'], ['GET', '/api/v1/org/users']] as const) {
      const r = await call(method, path, partnerKey, method === 'POST' ? { name: 'x', url: 'http://127.0.0.1:9/h', events: ['*'] } : undefined);
      expect(r.status, `${method} ${path}`).toBe(401);
      expect(r.body.error.code).toBe('unauthorized');
    }
    for (const key of [plainOrg.keys.read, plainOrg.keys.actions]) {
      for (const [method, path] of [['GET', '/api/v1/orgs'], ['GET', `/api/v1/orgs/${plainOrg.orgId}`], ['POST', '/api/v1/orgs']] as const) {
        const r = await call(method, path, key, method === 'POST' ? { name: 'x', owner: newOwner() } : undefined);
        expect(r.status, `${method} ${path}`).toBe(401);
      }
    }
    expect((await call('GET', '/api/v1/health', plainOrg.keys.read)).status).toBe(200);
  });
});

describe('the partner stage (REST API) pieces, invoked as API Gateway would', () => {
  const authorizerEvent = (token: string) => ({ type: 'REQUEST', methodArn: 'arn:aws:execute-api:us-east-1:111122223333:abc/partner/GET/api/v1/orgs', headers: { Authorization: `Bearer ${token}` } }) as unknown as APIGatewayRequestAuthorizerEvent;

  it('the authorizer admits a live partner key with its usage-plan key, and refuses one without, a revoked one and an org key', async () => {
    const { keyId, value } = await createPartnerKey(partnerId, 'metered', ['read']);
    await expect(authorizer(authorizerEvent(value))).rejects.toThrow('Unauthorized');
    const set = await cli(['partner', 'key-usage', '--partner', partnerId, '--key-id', keyId, '--usage-key', 'apigw-key-value-0123456789abcdef']);
    expect(set.code, set.stderr).toBe(0);
    const allowed = await authorizer(authorizerEvent(value));
    expect(allowed).toMatchObject({ principalId: keyId, usageIdentifierKey: 'apigw-key-value-0123456789abcdef', context: { partnerId } });
    expect(allowed.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow', Action: 'execute-api:Invoke' });
    await expect(authorizer(authorizerEvent(plainOrg.keys.read))).rejects.toThrow('Unauthorized');
    await revokeApiKey(partnerId, keyId);
    await expect(authorizer(authorizerEvent(value))).rejects.toThrow('Unauthorized');
  });

  it('the partner function serves a REST API (payload 1.0) event', async () => {
    const { handlerOf } = await localApiHandlers();
    const event = {
      resource: '/api/v1/orgs',
      path: '/api/v1/orgs',
      httpMethod: 'GET',
      headers: { Authorization: `Bearer ${partnerKey}`, Host: 'abc.execute-api.us-east-1.amazonaws.com' },
      multiValueHeaders: {},
      queryStringParameters: { limit: '5' },
      multiValueQueryStringParameters: { limit: ['5'] },
      pathParameters: null,
      stageVariables: null,
      body: null,
      isBase64Encoded: false,
      requestContext: { accountId: '111122223333', apiId: 'abc', domainName: 'abc.execute-api.us-east-1.amazonaws.com', domainPrefix: 'abc', protocol: 'HTTP/1.1', httpMethod: 'GET', path: '/partner/api/v1/orgs', stage: 'partner', requestId: randomUUID(), requestTimeEpoch: Date.now(), resourceId: 'r', resourcePath: '/api/v1/orgs', identity: { sourceIp: '203.0.113.9', userAgent: 'partner-system' } },
    } as unknown as APIGatewayProxyEvent;
    const res = (await handlerOf('partner')(event as never, { awsRequestId: randomUUID(), getRemainingTimeInMillis: () => 10_000 } as never)) as { statusCode: number; body: string };
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ limit: 5, offset: 0 });
  });
});

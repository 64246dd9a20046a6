import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';

let t: TestApi;
let org: TestOrg;
beforeAll(async () => {
  t = await startTestApi();
  org = await t.newOrg();
});
afterAll(() => t.close());

describe('smoke', () => {
  it('health answers for a valid key', async () => {
    const r = await t.call('GET', '/api/v1/health', { key: org.keys.read });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, organizationId: org.orgId, databaseReachable: true, apiVersion: 'v1' });
  });
});

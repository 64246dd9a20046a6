/** The e2e response check (test/support/openapi-conformance.ts) catches what it exists to catch. */
import { describe, expect, it } from 'vitest';
import { responseProblems } from '../support/openapi-conformance.ts';

const json = { 'content-type': 'application/json' };
const health = { ok: true, organizationId: 'o1', scopes: ['read'], databaseReachable: true, databaseError: null, apiVersion: 'v1' };
const check = (method: string, path: string, status: number, body: unknown, headers: Record<string, string> = json) =>
  responseProblems({ method, path, status, headers: new Headers(headers), text: JSON.stringify(body) });

describe('response conformance check', () => {
  it('accepts a documented body', async () => {
    expect(await check('GET', '/api/v1/health', 200, health)).toEqual([]);
  });

  it('refuses an undocumented field, a wrong type and a missing field', async () => {
    expect((await check('GET', '/api/v1/health', 200, { ...health, extra: 1 })).join()).toMatch(/additional properties \(extra\)/);
    expect((await check('GET', '/api/v1/health', 200, { ...health, ok: 'yes' })).join()).toMatch(/\/ok must be boolean/);
    const { apiVersion: _a, ...partial } = health;
    expect((await check('GET', '/api/v1/health', 200, partial)).join()).toMatch(/apiVersion/);
  });

  it('follows component references (a deal\'s nested key dates)', async () => {
    const problems = await check('GET', '/api/v1/transactions/0d3c8f4e-5b7a-4f0e-9a51-3c2b1d4e6f70', 200, { data: { id: 'x' } });
    expect(problems.join()).toMatch(/\/data\/id must match format "uuid"/);
  });

  it('refuses an undocumented success status and a non-envelope error', async () => {
    expect(await check('GET', '/api/v1/health', 201, health)).toEqual(['status 201 is not documented for getHealth']);
    expect((await check('GET', '/api/v1/health', 401, { message: 'no' })).join()).toMatch(/required property 'error'/);
    expect((await check('GET', '/api/v1/health', 401, { error: { code: 'unauthorized', message: 'm', extra: 1 } })).join()).toMatch(/additional/);
  });

  it('checks the error code of a documented status, any other error against the envelope, and Retry-After on 429', async () => {
    expect((await check('GET', '/api/v1/health', 403, { error: { code: 'not_found', message: 'm' } })).join()).toMatch(/allowed values/);
    expect(await check('GET', '/api/v1/health', 503, { error: { code: 'service_unavailable', message: 'm' } })).toEqual([]);
    expect(await check('GET', '/api/v1/health', 429, { error: { code: 'rate_limited', message: 'm' } })).toContain('429 without Retry-After');
    expect(await check('GET', '/api/v1/nothing-here', 404, { error: { code: 'not_found', message: 'm' } })).toEqual([]);
  });

  it('refuses an error status the spec does not give the operation: 409 without (IK), 422 without validated input', async () => {
    const conflict = { error: { code: 'conflict', message: 'm' } };
    expect((await check('POST', '/api/v1/contacts', 409, conflict)).join()).toMatch(/status 409 is not one the spec gives createContact/);
    expect(await check('POST', '/api/v1/transactions/0d3c8f4e-5b7a-4f0e-9a51-3c2b1d4e6f70/messages', 409, conflict)).toEqual([]);
    const invalid = { error: { code: 'validation_error', message: 'm', fields: { x: 'y' } } };
    expect((await check('GET', '/api/v1/health', 422, invalid)).join()).toMatch(/status 422 is not one the spec gives getHealth/);
    expect(await check('POST', '/api/v1/contacts', 422, invalid)).toEqual([]);
  });
});

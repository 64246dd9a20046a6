/**
 * The OAuth 2.1 authorization server end to end (spec "OAuth 2.1 flow", "Limits"), driven by a third-party client
 * library, oauth4webapi: discovery, registration, PKCE, code exchange, refresh, revocation and
 * `validateJwtAccessToken`; the sign-in pages are answered with form posts (test/support/oauth-flow.ts; the browser
 * test does the same with clicks) and the one-time code is read from the local SMTP server's mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { generateKeyPair, SignJWT } from 'jose';
import { addUser, createOrganization, removeUser } from '#db/orgs';
import { setClock } from '#ports/clock';
import { tokenSigner } from '#ports/token-signer';
import { localTokenSigner } from '#ports/token-signer/local';
import { getSigningKey } from '#db/signing-keys';
import { revokeUserClient } from '#use-cases/oauth';
import { startTestRuntime, type TestRuntime } from '../support/runtime-harness.ts';
import { signInAndConsent } from '../support/oauth-flow.ts';

let h: TestRuntime;
let base: string;
let as: oauth.AuthorizationServer;
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const REDIRECT = 'http://127.0.0.1:8976/callback';

type Org = Awaited<ReturnType<typeof createOrganization>>;
let org: Org;
let other: Org;
const ownerEmail = `owner+${randomUUID().slice(0, 8)}@example.test`;
const memberEmail = `agent+${randomUUID().slice(0, 8)}@example.test`;
let memberId: string;

beforeAll(async () => {
  h = await startTestRuntime('oauth');
  base = h.rt.baseUrl;
  org = await createOrganization({ name: 'Hill Country Realty', ownerEmail, ownerFirstName: 'Dana', ownerLastName: 'Whitfield' });
  other = await createOrganization({ name: 'Other Realty', ownerEmail: `x+${randomUUID().slice(0, 8)}@example.test` });
  memberId = (await addUser(org.orgId, { email: memberEmail, firstName: 'Sam', lastName: 'Ortiz', role: 'agent' })).userId;
  const issuer = new URL(base);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
});
afterAll(() => h.close());

/** Registers a client with oauth4webapi. */
async function registerClient(name = 'Closing Desk', redirectUris = [REDIRECT]): Promise<oauth.Client> {
  return oauth.processDynamicClientRegistrationResponse(await oauth.dynamicClientRegistrationRequest(as, { client_name: name, redirect_uris: redirectUris, token_endpoint_auth_method: 'none' }, insecure));
}

/** An authorization URL with PKCE S256, as oauth4webapi's docs build it. */
async function authorizeUrl(client: oauth.Client, scope = 'read draft actions', extra: Record<string, string> = {}) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('redirect_uri', REDIRECT);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', scope);
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
  return { url, verifier, state };
}

/** Signs in, consents, and returns the callback parameters and the verifier. */
async function authorize(client: oauth.Client, opts: { email?: string; scope?: string; orgId?: string } = {}) {
  const { url, verifier, state } = await authorizeUrl(client, opts.scope);
  const callback = await signInAndConsent({ baseUrl: base, mailDir: h.rt.messaging.smtp.directory, authorizeUrl: url.href, email: opts.email ?? ownerEmail, orgId: opts.orgId });
  return { params: oauth.validateAuthResponse(as, client, callback, state), verifier };
}

const redeemRaw = (client: oauth.Client, params: URLSearchParams, verifier: string) => oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, insecure);

/** Signs in and redeems the code. @returns the token response */
async function tokensFor(client: oauth.Client, opts: { email?: string; scope?: string; orgId?: string } = {}) {
  const { params, verifier } = await authorize(client, opts);
  return oauth.processAuthorizationCodeResponse(as, client, await redeemRaw(client, params, verifier));
}

const refreshRaw = (client: oauth.Client, refreshToken: string) => oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, insecure);
const api = (path: string, token: string, init: RequestInit = {}) => fetch(`${base}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } });
const health = async (token: string) => (await api('/api/v1/health', token)).status;
const tokenError = async (r: Response) => ({ status: r.status, error: ((await r.json()) as { error: string }).error });

describe('discovery and registration', () => {
  it('RFC 8414 metadata: S256 only, public clients, the endpoints and scopes', () => {
    expect(as.issuer).toBe(base);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.token_endpoint_auth_methods_supported).toEqual(['none']);
    expect(as.scopes_supported).toEqual(['read', 'draft', 'actions']);
    expect(as.registration_endpoint).toBe(`${base}/oauth/register`);
    expect(as.revocation_endpoint).toBe(`${base}/oauth/revoke`);
  });

  it('registers a public client (no secret); more than 5 redirect URIs, a fragment or plain http off loopback are refused', async () => {
    const client = await registerClient();
    expect(client.client_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.client_secret).toBeUndefined();
    const reg = (body: unknown) => fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const six = Array.from({ length: 6 }, (_, i) => `https://app.example.com/cb${i}`);
    expect(await tokenError(await reg({ client_name: 'x', redirect_uris: six }))).toEqual({ status: 400, error: 'invalid_redirect_uri' });
    expect((await reg({ client_name: 'x', redirect_uris: six.slice(0, 5) })).status).toBe(201);
    expect(await tokenError(await reg({ client_name: 'x', redirect_uris: ['https://app.example.com/cb#frag'] }))).toEqual({ status: 400, error: 'invalid_redirect_uri' });
    expect(await tokenError(await reg({ client_name: 'x', redirect_uris: ['http://app.example.com/cb'] }))).toEqual({ status: 400, error: 'invalid_redirect_uri' });
    expect(await tokenError(await reg({ client_name: 'x', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_basic' }))).toEqual({ status: 400, error: 'invalid_client_metadata' });
  });
});

describe('authorization request', () => {
  it('an unknown client, or a redirect URI not registered exactly (a trailing slash is another URI), gets an error page and no redirect', async () => {
    const client = await registerClient();
    const { url } = await authorizeUrl(client);
    const unknown = new URL(url);
    unknown.searchParams.set('client_id', randomUUID());
    const slash = new URL(url);
    slash.searchParams.set('redirect_uri', `${REDIRECT}/`);
    const evil = new URL(url);
    evil.searchParams.set('redirect_uri', 'https://attacker.example/callback');
    for (const u of [unknown, slash, evil]) {
      const r = await fetch(u, { redirect: 'manual' });
      expect(r.status).toBe(400);
      expect(r.headers.get('location')).toBeNull();
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });

  it.each([
    ['no code_challenge', { code_challenge: null }],
    ['code_challenge_method=plain', { code_challenge_method: 'plain' }],
    ['code_challenge_method omitted', { code_challenge_method: null }],
  ])('PKCE downgrade refused: %s → redirect with invalid_request, no sign-in page', async (_name, change) => {
    const client = await registerClient();
    const { url, state } = await authorizeUrl(client);
    for (const [k, v] of Object.entries(change)) (v === null ? url.searchParams.delete(k) : url.searchParams.set(k, v));
    const r = await fetch(url, { redirect: 'manual' });
    expect(r.status).toBe(302);
    const back = new URL(r.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('state')).toBe(state);
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('an unknown scope or resource is refused back to the client', async () => {
    const client = await registerClient();
    const bad = await authorizeUrl(client, 'read admin');
    expect(new URL((await fetch(bad.url, { redirect: 'manual' })).headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
    const target = await authorizeUrl(client, 'read', { resource: 'https://other.example/api' });
    expect(new URL((await fetch(target.url, { redirect: 'manual' })).headers.get('location')!).searchParams.get('error')).toBe('invalid_target');
  });

  it('a denied consent returns access_denied', async () => {
    const client = await registerClient();
    const { url } = await authorizeUrl(client);
    const back = await signInAndConsent({ baseUrl: base, mailDir: h.rt.messaging.smtp.directory, authorizeUrl: url.href, email: ownerEmail, decision: 'deny' });
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
  });
});

describe('code exchange and the access token', () => {
  it('issues an RFC 9068 JWT (1 h) and a refresh token; the token works on the API as the user in the organization', async () => {
    const client = await registerClient();
    const tokens = await tokensFor(client);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'read draft actions' });
    expect(typeof tokens.refresh_token).toBe('string');
    const claims = await oauth.validateJwtAccessToken(as, new Request(`${base}/api/v1/health`, { headers: { authorization: `Bearer ${tokens.access_token}` } }), base, insecure);
    expect(claims).toMatchObject({ iss: base, aud: base, sub: org.ownerUserId, client_id: client.client_id, scope: 'read draft actions', org_id: org.orgId, org_name: 'Hill Country Realty', name: 'Dana Whitfield' });
    expect(claims.exp - claims.iat).toBe(3600);
    const r = await api('/api/v1/health', tokens.access_token);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ ok: true, organizationId: org.orgId, scopes: ['read', 'draft', 'actions'] });
  });

  it('an OAuth token manages webhook subscriptions with no other credential; a read-only token gets 403 with a challenge', async () => {
    const client = await registerClient();
    const { access_token } = await tokensFor(client, { scope: 'read actions' });
    const hook = { name: 'CRM', url: 'http://127.0.0.1:9/hook', events: ['*'] };
    const created = await api('/api/v1/webhooks', access_token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(hook) });
    expect(created.status).toBe(200);
    const id = ((await created.json()) as { data: { id: string } }).data.id;
    expect((await api(`/api/v1/webhooks/${id}`, access_token)).status).toBe(200);
    const put = await api(`/api/v1/webhooks/${id}`, access_token, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...hook, name: 'CRM sync' }) });
    expect(put.status).toBe(200);
    expect((await api(`/api/v1/webhooks/${id}/regenerate-secret`, access_token, { method: 'POST' })).status).toBe(200);
    expect((await api(`/api/v1/webhooks/${id}`, access_token, { method: 'DELETE' })).status).toBe(200);

    const readOnly = (await tokensFor(client, { scope: 'read' })).access_token;
    const refused = await api('/api/v1/webhooks', readOnly, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(hook) });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('insufficient_scope');
    expect(refused.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="actions", resource_metadata="${base}/.well-known/oauth-protected-resource"`);
  });

  it('the user picks the organization when the email belongs to several', async () => {
    const both = `both+${randomUUID().slice(0, 8)}@example.test`;
    await addUser(org.orgId, { email: both, firstName: 'Lee', lastName: null, role: 'agent' });
    await addUser(other.orgId, { email: both, firstName: 'Lee', lastName: null, role: 'agent' });
    const client = await registerClient();
    const tokens = await tokensFor(client, { email: both, orgId: other.orgId });
    const r = await api('/api/v1/health', tokens.access_token);
    expect(((await r.json()) as { organizationId: string }).organizationId).toBe(other.orgId);
  });

  it('a wrong code_verifier is invalid_grant', async () => {
    const client = await registerClient();
    const { params } = await authorize(client);
    expect(await tokenError(await redeemRaw(client, params, oauth.generateRandomCodeVerifier()))).toEqual({ status: 400, error: 'invalid_grant' });
  });

  it('a code expires 60 s after issue (controlled clock)', async () => {
    const client = await registerClient();
    const t0 = Date.now();
    setClock(() => t0);
    try {
      const first = await authorize(client);
      const second = await authorize(client);
      setClock(() => t0 + 59_000);
      expect((await redeemRaw(client, first.params, first.verifier)).status).toBe(200);
      setClock(() => t0 + 60_000);
      expect(await tokenError(await redeemRaw(client, second.params, second.verifier))).toEqual({ status: 400, error: 'invalid_grant' });
    } finally {
      setClock();
    }
  });

  it('a replayed code is refused and revokes the tokens it issued', async () => {
    const client = await registerClient();
    const { params, verifier } = await authorize(client);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await redeemRaw(client, params, verifier));
    expect(await health(tokens.access_token)).toBe(200);
    expect(await tokenError(await redeemRaw(client, params, verifier))).toEqual({ status: 400, error: 'invalid_grant' });
    expect(await health(tokens.access_token)).toBe(401);
    expect(await tokenError(await refreshRaw(client, tokens.refresh_token!))).toEqual({ status: 400, error: 'invalid_grant' });
  });

  it('two parallel redemptions of one code: exactly one succeeds', async () => {
    const client = await registerClient();
    const { params, verifier } = await authorize(client);
    const results = await Promise.all([redeemRaw(client, params, verifier), redeemRaw(client, params, verifier)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
  });
});

describe('refresh rotation and reuse (RFC 9700 §4.14)', () => {
  it('each refresh returns a new refresh token and retires the one sent', async () => {
    const client = await registerClient();
    const t1 = await tokensFor(client);
    const t2 = await oauth.processRefreshTokenResponse(as, client, await refreshRaw(client, t1.refresh_token!));
    expect(t2.refresh_token).not.toBe(t1.refresh_token);
    expect(t2.expires_in).toBe(3600);
    const t3 = await oauth.processRefreshTokenResponse(as, client, await refreshRaw(client, t2.refresh_token!));
    expect(await health(t3.access_token)).toBe(200);
  });

  it("a used refresh token revokes every live token of that user and client, the newest included; other clients' and users' tokens live on", async () => {
    const client = await registerClient();
    const otherClient = await registerClient('Other App');
    const t1 = await tokensFor(client);
    const second = await tokensFor(client); // a second authorization of the same user and client
    const otherApp = await tokensFor(otherClient);
    const otherUser = await tokensFor(client, { email: memberEmail });
    const t2 = await oauth.processRefreshTokenResponse(as, client, await refreshRaw(client, t1.refresh_token!));
    expect(await health(t2.access_token)).toBe(200);

    expect(await tokenError(await refreshRaw(client, t1.refresh_token!))).toEqual({ status: 400, error: 'invalid_grant' });
    expect(await health(t2.access_token)).toBe(401);
    expect(await health(t1.access_token)).toBe(401);
    expect(await health(second.access_token)).toBe(401);
    expect(await tokenError(await refreshRaw(client, t2.refresh_token!))).toEqual({ status: 400, error: 'invalid_grant' });
    expect(await tokenError(await refreshRaw(client, second.refresh_token!))).toEqual({ status: 400, error: 'invalid_grant' });

    expect(await health(otherApp.access_token)).toBe(200);
    expect(await health(otherUser.access_token)).toBe(200);
    expect((await refreshRaw(otherClient, otherApp.refresh_token!)).status).toBe(200);
  });

  it('parallel refreshes of one token: at most one succeeds', async () => {
    const client = await registerClient();
    const t1 = await tokensFor(client);
    const results = await Promise.all(Array.from({ length: 4 }, () => refreshRaw(client, t1.refresh_token!)));
    expect(results.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    expect(results.filter((r) => r.status === 400).length).toBeGreaterThanOrEqual(3);
  });

  it('a refresh token presented by another client is invalid_grant', async () => {
    const client = await registerClient();
    const thief = await registerClient('Thief');
    const t1 = await tokensFor(client);
    expect(await tokenError(await refreshRaw(thief, t1.refresh_token!))).toEqual({ status: 400, error: 'invalid_grant' });
  });
});

describe('revocation and membership', () => {
  it('RFC 7009: revoking a refresh token ends it and its access tokens; revoking again (or an unknown token) is still 200', async () => {
    const client = await registerClient();
    const t = await tokensFor(client);
    const revoke = (token: string) => oauth.revocationRequest(as, client, oauth.None(), token, insecure);
    await oauth.processRevocationResponse(await revoke(t.refresh_token!));
    expect(await health(t.access_token)).toBe(401);
    expect(await tokenError(await refreshRaw(client, t.refresh_token!))).toEqual({ status: 400, error: 'invalid_grant' });
    await oauth.processRevocationResponse(await revoke(t.refresh_token!));
    await oauth.processRevocationResponse(await revoke('never-issued'));
  });

  it('revoking an access token ends its grant', async () => {
    const client = await registerClient();
    const t = await tokensFor(client);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), t.access_token, insecure));
    expect(await health(t.access_token)).toBe(401);
  });

  it('a removed member gets 401 at once; a disconnected application gets 401', async () => {
    const email = `leaving+${randomUUID().slice(0, 8)}@example.test`;
    const leaving = await addUser(org.orgId, { email, firstName: null, lastName: null, role: 'agent' });
    const client = await registerClient();
    const t = await tokensFor(client, { email });
    expect(await health(t.access_token)).toBe(200);
    await removeUser(org.orgId, leaving.userId);
    expect(await health(t.access_token)).toBe(401);

    const t2 = await tokensFor(client, { email: memberEmail });
    expect(await health(t2.access_token)).toBe(200);
    await revokeUserClient(memberId, client.client_id, new Date());
    expect(await health(t2.access_token)).toBe(401);
  });
});

describe('tokens the API refuses', () => {
  const claims = () => {
    const iat = Math.floor(Date.now() / 1000);
    return { iss: base, sub: org.ownerUserId, aud: base, exp: iat + 600, iat, jti: randomUUID(), client_id: 'x', scope: 'read', org_id: org.orgId, gid: randomUUID() };
  };

  it('alg none, another key with our kid, an unpublished key, a wrong aud, a wrong iss, a wrong typ → 401 with a challenge', async () => {
    const signer = await tokenSigner();
    const client = await registerClient();
    const live = await tokensFor(client, { scope: 'read' });
    const payload = JSON.parse(Buffer.from(live.access_token.split('.')[1], 'base64url').toString('utf8'));
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${live.access_token.split('.')[1]}.`;
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid: signer.kid, typ: 'at+jwt' }).sign(privateKey);
    // The issuer published its key before the first token; a key it never published is refused by its kid.
    expect(await getSigningKey(signer.kid)).toEqual((await signer.publicJwks()).keys[0]);
    const unpublished = await (await localTokenSigner()).sign(payload, 'at+jwt');
    const wrongAud = await signer.sign({ ...payload, aud: 'https://other.example' }, 'at+jwt');
    const wrongIss = await signer.sign({ ...payload, iss: 'https://other.example' }, 'at+jwt');
    const wrongTyp = await signer.sign(payload, 'JWT');
    const expired = await signer.sign({ ...payload, exp: payload.iat - 1 }, 'at+jwt');
    expect(await health(live.access_token)).toBe(200); // control: the same claims, correctly signed
    for (const token of [none, forged, unpublished, wrongAud, wrongIss, wrongTyp, expired]) {
      const r = await api('/api/v1/health', token);
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource"`);
    }
    // A token of a grant that never existed, correctly signed.
    expect(await health(await signer.sign(claims(), 'at+jwt'))).toBe(401);
  });

  it('a 401 without credentials points at the RFC 9728 metadata, which names this authorization server', async () => {
    const r = await fetch(`${base}/api/v1/health`);
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"`);
    const prm = (await (await fetch(`${base}/.well-known/oauth-protected-resource`)).json()) as Record<string, unknown>;
    expect(prm).toMatchObject({ resource: base, authorization_servers: [base], scopes_supported: ['read', 'draft', 'actions'] });
  });

  it('RFC 8707: a token issued for the MCP resource carries it as aud and is accepted', async () => {
    const client = await registerClient();
    const { url, verifier, state } = await authorizeUrl(client, 'read', { resource: `${base}/mcp` });
    const callback = await signInAndConsent({ baseUrl: base, mailDir: h.rt.messaging.smtp.directory, authorizeUrl: url.href, email: ownerEmail });
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await redeemRaw(client, oauth.validateAuthResponse(as, client, callback, state), verifier));
    const claims = await oauth.validateJwtAccessToken(as, new Request(`${base}/mcp`, { headers: { authorization: `Bearer ${tokens.access_token}` } }), `${base}/mcp`, insecure);
    expect(claims.aud).toBe(`${base}/mcp`);
    expect(await health(tokens.access_token)).toBe(200);
  });

  it('an OAuth token and an organization key are refused on partner routes (401)', async () => {
    const client = await registerClient();
    const t = await tokensFor(client);
    expect((await api('/api/v1/orgs', t.access_token)).status).toBe(401);
    expect((await api('/api/v1/orgs', org.keys.actions)).status).toBe(401);
  });
});

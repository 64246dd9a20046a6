/**
 * The OAuth 2.1 authorization server (spec "OAuth 2.1 flow"), served on the API's own origin (which is the issuer):
 *
 * - `GET /.well-known/oauth-authorization-server`: RFC 8414 metadata (S256 only, auth method `none`).
 * - `GET /.well-known/oauth-protected-resource[/api/v1|/mcp]`: RFC 9728 metadata of the API and the MCP endpoint.
 * - `GET /.well-known/jwks.json`: the public signing key (RFC 7517).
 * - `POST /oauth/register`: RFC 7591 registration of a public client (≤ 5 redirect URIs, matched exactly).
 * - `GET /oauth/authorize`: validates the request (no redirect for an unknown client or redirect URI; PKCE S256
 *   mandatory) and shows the sign-in page; `POST /oauth/authorize` runs the steps: email → one-time code (mailed) →
 *   consent (organization, client name, redirect host, scopes) → redirect with the code (and `iss`, RFC 9207).
 * - `POST /oauth/token`: `authorization_code` and `refresh_token` grants (shared/use-cases/oauth.ts).
 * - `POST /oauth/revoke`: RFC 7009.
 *
 * Errors of the OAuth endpoints use OAuth's own shape `{ error, error_description }` (RFC 6749 §5.2), which OAuth
 * clients parse, not the API's envelope.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Scope } from '#api/types';
import {
  countOtpAttempt,
  createCode,
  createLoginSession,
  finishLogin,
  getClient,
  getLoginSession,
  hashSecret,
  registerClient,
  setLoginOtp,
  verifyLogin,
  type AuthorizationRequest,
} from '#db/oauth';
import { getOrganization, membershipsByEmail } from '#db/orgs';
import { clockNow } from '#ports/clock';
import { sendServiceEmail } from '#use-cases/service-mail';
import { requestOrigin } from '#ports/public-url';
import { tokenSigner } from '#ports/token-signer';
import { logger, observedHandler } from '#observability/powertools';
import { acceptedAudiences, CODE_TTL_MS, exchangeCode, OAUTH_SCOPES, OAuthError, refreshTokens, revokeToken } from '#use-cases/oauth';
import { codePage, consentPage, emailPage, errorPage } from './pages.ts';

/** Spec "Limits": at most 5 redirect URIs per client. */
export const MAX_REDIRECT_URIS = 5;
/** Wrong one-time codes a login session tolerates before it ends. */
export const MAX_OTP_ATTEMPTS = 5;

type Result = APIGatewayProxyStructuredResultV2;

const json = (statusCode: number, body: unknown, extra: Record<string, string> = {}): Result => ({
  statusCode,
  headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'access-control-allow-origin': '*', ...extra },
  body: JSON.stringify(body),
});
const oauthError = (e: OAuthError): Result => json(e.status, { error: e.error, error_description: e.description });

/** Pages may not be framed (clickjacking of the consent button) and run no script. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};
const html = (statusCode: number, body: string): Result => ({ statusCode, headers: PAGE_HEADERS, body });
const redirect = (location: string): Result => ({ statusCode: 302, headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }, body: '' });

/** The request body as form fields (`application/x-www-form-urlencoded`). */
function formOf(event: APIGatewayProxyEventV2): URLSearchParams {
  const raw = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';
  return new URLSearchParams(raw);
}

/** RFC 8414 §2 metadata. */
export function authorizationServerMetadata(origin: string) {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/oauth/authorize`,
    token_endpoint: `${origin}/oauth/token`,
    registration_endpoint: `${origin}/oauth/register`,
    revocation_endpoint: `${origin}/oauth/revoke`,
    jwks_uri: `${origin}/.well-known/jwks.json`,
    scopes_supported: [...OAUTH_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
  };
}

/** RFC 9728 §2 metadata of one protected resource of this origin. */
export function protectedResourceMetadata(origin: string, resource: string) {
  return {
    resource,
    authorization_servers: [origin],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Transaction-Coordination Service API',
  };
}

/**
 * A redirect URI a client may register: absolute, no fragment; `https`, or `http` only on a loopback host
 * (RFC 8252 §7.3), or a private-use scheme with a dot in it (RFC 8252 §7.1, e.g. `com.example.app:/cb`).
 */
export function acceptableRedirectUri(uri: string): boolean {
  if (typeof uri !== 'string' || uri.length > 2000) return false;
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return false;
  }
  if (u.hash || uri.includes('#')) return false;
  if (u.protocol === 'https:') return true;
  if (u.protocol === 'http:') return ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
  return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(u.protocol);
}

async function register(event: APIGatewayProxyEventV2): Promise<Result> {
  let meta: Record<string, unknown>;
  try {
    meta = JSON.parse(event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '');
    if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) throw new Error();
  } catch {
    return oauthError(new OAuthError('invalid_client_metadata', 'The body must be a JSON object.'));
  }
  const uris = meta.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) return oauthError(new OAuthError('invalid_redirect_uri', 'redirect_uris must list 1 to 5 URIs.'));
  if (uris.length > MAX_REDIRECT_URIS) return oauthError(new OAuthError('invalid_redirect_uri', `At most ${MAX_REDIRECT_URIS} redirect URIs per client.`));
  const bad = uris.find((u) => !acceptableRedirectUri(u as string));
  if (bad !== undefined) return oauthError(new OAuthError('invalid_redirect_uri', `Not an acceptable redirect URI: ${String(bad).slice(0, 200)} (https, http on a loopback host, or a private-use scheme; no fragment).`));
  const name = meta.client_name;
  if (typeof name !== 'string' || !name.trim() || name.length > 100) return oauthError(new OAuthError('invalid_client_metadata', 'client_name is required (1 to 100 characters).'));
  if (meta.token_endpoint_auth_method !== undefined && meta.token_endpoint_auth_method !== 'none') {
    return oauthError(new OAuthError('invalid_client_metadata', "Only public clients are registered: token_endpoint_auth_method must be 'none'."));
  }
  const grantTypes = meta.grant_types;
  if (grantTypes !== undefined && (!Array.isArray(grantTypes) || grantTypes.some((g) => g !== 'authorization_code' && g !== 'refresh_token'))) {
    return oauthError(new OAuthError('invalid_client_metadata', 'grant_types may only contain authorization_code and refresh_token.'));
  }
  const client = await registerClient({ clientName: name.trim(), redirectUris: [...new Set(uris as string[])] }, clockNow());
  return json(201, {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(Date.parse(client.createdAt) / 1000),
    client_name: client.clientName,
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  });
}

/** The authorization response's query (RFC 6749 §4.1.2 / §4.1.2.1) appended to `redirectUri`, with `iss` (RFC 9207). */
function backToClient(redirectUri: string, params: Record<string, string | null>, origin: string): string {
  const u = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null) u.searchParams.set(k, v);
  u.searchParams.set('iss', origin);
  return u.toString();
}

async function authorizeStart(event: APIGatewayProxyEventV2, origin: string): Promise<Result> {
  const q = new URLSearchParams(event.rawQueryString ?? '');
  const clientId = q.get('client_id') ?? '';
  const redirectUri = q.get('redirect_uri') ?? '';
  const client = await getClient(clientId);
  // RFC 9700 §4.1.3 / OAuth 2.1 §4.1.2.1: never redirect to an unverified URI.
  if (!client) return html(400, errorPage('Unknown application', 'This sign-in link names an application that is not registered. Nothing was sent back to it.'));
  if (!client.redirectUris.includes(redirectUri)) return html(400, errorPage('Unknown redirect address', 'The application asked to send you to an address it did not register. Nothing was sent back to it.'));
  const state = q.get('state');
  const fail = (error: string, description: string) => redirect(backToClient(redirectUri, { error, error_description: description, state }, origin));
  if (q.get('response_type') !== 'code') return fail('unsupported_response_type', "response_type must be 'code'.");
  const challenge = q.get('code_challenge');
  if (!challenge) return fail('invalid_request', 'PKCE is required: code_challenge is missing.');
  if (q.get('code_challenge_method') !== 'S256') return fail('invalid_request', "PKCE: code_challenge_method must be 'S256' ('plain' and an omitted method are refused).");
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) return fail('invalid_request', 'code_challenge must be a base64url SHA-256 (43 characters).');
  const asked = (q.get('scope') ?? 'read').split(' ').filter(Boolean);
  if (!asked.length || asked.some((s) => !OAUTH_SCOPES.includes(s as Scope))) return fail('invalid_scope', `scope must be space-separated values of ${OAUTH_SCOPES.join(', ')}.`);
  const resource = q.get('resource') ?? origin;
  if (!acceptedAudiences(origin).includes(resource)) return fail('invalid_target', 'resource is not served by this authorization server.');
  const request: AuthorizationRequest = { clientId, redirectUri, scopes: OAUTH_SCOPES.filter((s) => asked.includes(s)), state, codeChallenge: challenge, resource: resource.replace(/\/$/, '') || origin };
  const session = await createLoginSession(request, clockNow().getTime());
  return html(200, emailPage(session, client.clientName));
}

const sessionGone = () => html(400, errorPage('Sign-in expired', 'This sign-in has expired or was already used. Go back to the application and start again.'));

async function authorizeStep(event: APIGatewayProxyEventV2, origin: string): Promise<Result> {
  const form = formOf(event);
  const id = form.get('session') ?? '';
  const now = clockNow();
  const session = await getLoginSession(id, now.getTime());
  if (!session) return sessionGone();
  const client = await getClient(session.request.clientId);
  if (!client) return sessionGone();
  const step = form.get('step');

  if (step === 'email') {
    const email = (form.get('email') ?? '').trim().toLowerCase();
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || email.length > 320) return html(422, emailPage(id, client.clientName, 'Enter a valid email address.'));
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await setLoginOtp(id, email, hashSecret(`${id}:${code}`));
    // Only a member gets a code; the page says the same either way (no account enumeration).
    if ((await membershipsByEmail(email)).length) await mailCode(email, code, client.clientName);
    return html(200, codePage(id, email));
  }

  if (step === 'code') {
    if (!session.email || !session.otpHash) return html(422, emailPage(id, client.clientName, 'Enter your email first.'));
    const code = (form.get('code') ?? '').trim();
    if (session.otpAttempts >= MAX_OTP_ATTEMPTS) return sessionGone();
    if (!(await verifyLogin(id, hashSecret(`${id}:${code}`), now))) {
      const attempts = await countOtpAttempt(id);
      if (attempts >= MAX_OTP_ATTEMPTS) return html(400, errorPage('Too many attempts', 'Too many wrong codes. Go back to the application and start again.'));
      return html(422, codePage(id, session.email, 'That code is not right. Check the latest email and try again.'));
    }
    return consent(id, session.email, session.request, client.clientName);
  }

  if (step === 'consent') {
    if (!session.verifiedAt || !session.email) return sessionGone();
    const memberships = await membershipsByEmail(session.email);
    const { request } = session;
    const decision = form.get('decision');
    const chosen = memberships.find((m) => m.orgId === form.get('org'));
    if (decision !== 'deny' && !chosen) return consent(id, session.email, request, client.clientName);
    // One decision per sign-in: a double submit gets the expired page, not a second code.
    if (!(await finishLogin(id, now))) return sessionGone();
    if (decision !== 'approve') return redirect(backToClient(request.redirectUri, { error: 'access_denied', error_description: 'The user denied the request.', state: request.state }, origin));
    const code = await createCode({
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      scopes: request.scopes,
      resource: request.resource,
      orgId: chosen!.orgId,
      userId: chosen!.user.userId,
      grantId: randomUUID(),
      expiresAt: now.getTime() + CODE_TTL_MS,
    });
    return redirect(backToClient(request.redirectUri, { code, state: request.state }, origin));
  }
  return sessionGone();
}

async function consent(id: string, email: string, request: AuthorizationRequest, clientName: string): Promise<Result> {
  const memberships = await membershipsByEmail(email);
  if (!memberships.length) return html(403, errorPage('No workspace', `${email} is not a member of any workspace.`));
  const orgs = await Promise.all(memberships.map(async (m) => ({ orgId: m.orgId, name: (await getOrganization(m.orgId))?.name ?? m.orgId })));
  let redirectHost: string;
  try {
    const u = new URL(request.redirectUri);
    redirectHost = u.host || `${u.protocol}${u.pathname}`;
  } catch {
    redirectHost = request.redirectUri;
  }
  return html(200, consentPage(id, { clientName, redirectHost, scopes: request.scopes, orgs, email }));
}

async function mailCode(email: string, code: string, clientName: string): Promise<void> {
  const text = `Your sign-in code is ${code}.\n\nEnter it on the sign-in page to authorize ${clientName}. It is valid 10 minutes. If you did not ask for it, ignore this email.`;
  await sendServiceEmail({ to: email, fromName: 'Sign-in', subject: `Your sign-in code: ${code}`, text });
}

async function token(event: APIGatewayProxyEventV2, origin: string): Promise<Result> {
  const form = formOf(event);
  const clientId = form.get('client_id') ?? '';
  if (!(await getClient(clientId))) return oauthError(new OAuthError('invalid_client', 'Unknown client_id.', 401));
  const now = clockNow();
  try {
    switch (form.get('grant_type')) {
      case 'authorization_code':
        return json(200, await exchangeCode({ code: form.get('code') ?? '', codeVerifier: form.get('code_verifier') ?? '', clientId, redirectUri: form.get('redirect_uri') ?? '' }, origin, now), { pragma: 'no-cache' });
      case 'refresh_token':
        return json(200, await refreshTokens({ refreshToken: form.get('refresh_token') ?? '', clientId, ...(form.has('scope') ? { scope: form.get('scope')! } : {}) }, origin, now), { pragma: 'no-cache' });
      default:
        throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
    }
  } catch (err) {
    if (err instanceof OAuthError) return oauthError(err);
    throw err;
  }
}

async function revoke(event: APIGatewayProxyEventV2, origin: string): Promise<Result> {
  const form = formOf(event);
  const value = form.get('token');
  if (!value) return oauthError(new OAuthError('invalid_request', 'token is required.'));
  await revokeToken(value, form.get('client_id') ?? undefined, origin, clockNow());
  // RFC 7009 §2.2: 200 whether or not the token was valid.
  return { statusCode: 200, headers: { 'cache-control': 'no-store', 'access-control-allow-origin': '*' }, body: '' };
}

/** Dispatches on the route key (lib/public-routes.ts). */
export const handler = observedHandler(async (event: APIGatewayProxyEventV2): Promise<Result> => {
  const origin = requestOrigin(event);
  try {
    switch (event.routeKey) {
      case 'GET /.well-known/oauth-authorization-server':
        return json(200, authorizationServerMetadata(origin), { 'cache-control': 'max-age=300' });
      case 'GET /.well-known/oauth-protected-resource':
        return json(200, protectedResourceMetadata(origin, origin), { 'cache-control': 'max-age=300' });
      case 'GET /.well-known/oauth-protected-resource/api/v1':
        return json(200, protectedResourceMetadata(origin, `${origin}/api/v1`), { 'cache-control': 'max-age=300' });
      case 'GET /.well-known/oauth-protected-resource/mcp':
        return json(200, protectedResourceMetadata(origin, `${origin}/mcp`), { 'cache-control': 'max-age=300' });
      case 'GET /.well-known/jwks.json':
        return json(200, await (await tokenSigner()).publicJwks(), { 'cache-control': 'max-age=300' });
      case 'POST /oauth/register':
        return await register(event);
      case 'GET /oauth/authorize':
        return await authorizeStart(event, origin);
      case 'POST /oauth/authorize':
        return await authorizeStep(event, origin);
      case 'POST /oauth/token':
        return await token(event, origin);
      case 'POST /oauth/revoke':
        return await revoke(event, origin);
      default:
        return json(404, { error: 'not_found' });
    }
  } catch (err) {
    logger.error('oauth request failed', { error: err instanceof Error ? err : String(err) });
    return json(500, { error: 'server_error', error_description: 'An unexpected error occurred.' });
  }
});

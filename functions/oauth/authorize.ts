/**
 * The OAuth 2.1 authorization endpoint (spec "OAuth 2.1 flow"): `GET /oauth/authorize` starts a login session,
 * `POST /oauth/authorize` runs its steps, which end in a redirect to the client's registered URI with an
 * authorization code (RFC 6749 §4.1.2) or an error.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Scope } from '#api/types';
import {
  countOtpAttempt,
  createCode,
  createLoginSession,
  finishLogin,
  getClient,
  getLoginSession,
  hashSecret,
  setLoginOtp,
  verifyLogin,
  type AuthorizationRequest,
} from '#db/oauth';
import { membershipsByEmail } from '#db/orgs';
import { pageBranding } from '#use-cases/org-settings';
import { clockNow } from '#ports/clock';
import { sendServiceEmail } from '#use-cases/service-mail';
import { acceptedAudiences, CODE_TTL_MS, OAUTH_SCOPES } from '#use-cases/oauth';
import { codePage, consentPage, emailPage, errorPage } from './pages.ts';
import { formOf, html, redirect, type Result } from './responses.ts';

/** Wrong one-time codes a login session tolerates before it ends. */
export const MAX_OTP_ATTEMPTS = 5;

/** The authorization response's query (RFC 6749 §4.1.2 / §4.1.2.1) appended to `redirectUri`, with `iss` (RFC 9207). */
function backToClient(redirectUri: string, params: Record<string, string | null>, origin: string): string {
  const u = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null) u.searchParams.set(k, v);
  u.searchParams.set('iss', origin);
  return u.toString();
}

/**
 * `GET /oauth/authorize`: validates the request (no redirect for an unknown client or redirect URI; PKCE S256
 * mandatory) and shows the sign-in page, in the branding of the workspace named by the optional `organization`
 * parameter (an organization id; designed here, like Auth0's parameter of that name).
 */
export async function authorizeStart(event: APIGatewayProxyEventV2, origin: string): Promise<Result> {
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
  // The workspace the client names (Auth0's `organization` parameter): only its branding on the sign-in steps.
  const hinted = /^[0-9a-f-]{36}$/i.test(q.get('organization') ?? '') ? q.get('organization')! : undefined;
  const branding = hinted ? await pageBranding(hinted) : undefined;
  const request: AuthorizationRequest = {
    clientId,
    redirectUri,
    scopes: OAUTH_SCOPES.filter((s) => asked.includes(s)),
    state,
    codeChallenge: challenge,
    resource: resource.replace(/\/$/, '') || origin,
    ...(branding ? { organization: hinted } : {}),
  };
  const session = await createLoginSession(request, clockNow().getTime());
  return html(200, emailPage(session, client.clientName, undefined, branding));
}

/** The page of an expired, used or unknown login session. */
const sessionGone = () => html(400, errorPage('Sign-in expired', 'This sign-in has expired or was already used. Go back to the application and start again.'));

/**
 * `POST /oauth/authorize`: one step of the sign-in, by the form's `step`: email → one-time code (mailed to a member
 * only; the page is the same either way) → consent (organization, client name, redirect host, scopes) → redirect
 * with the code (and `iss`, RFC 9207), or `access_denied`.
 */
export async function authorizeStep(event: APIGatewayProxyEventV2, origin: string): Promise<Result> {
  const form = formOf(event);
  const id = form.get('session') ?? '';
  const now = clockNow();
  const session = await getLoginSession(id, now.getTime());
  if (!session) return sessionGone();
  const client = await getClient(session.request.clientId);
  if (!client) return sessionGone();
  const step = form.get('step');
  const branding = session.request.organization ? await pageBranding(session.request.organization) : undefined;

  if (step === 'email') {
    const email = (form.get('email') ?? '').trim().toLowerCase();
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || email.length > 320) return html(422, emailPage(id, client.clientName, 'Enter a valid email address.', branding));
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await setLoginOtp(id, email, hashSecret(`${id}:${code}`));
    // Only a member gets a code; the page says the same either way (no account enumeration).
    if ((await membershipsByEmail(email)).length) await mailCode(email, code, client.clientName);
    return html(200, codePage(id, email, undefined, branding));
  }

  if (step === 'code') {
    if (!session.email || !session.otpHash) return html(422, emailPage(id, client.clientName, 'Enter your email first.', branding));
    const code = (form.get('code') ?? '').trim();
    if (session.otpAttempts >= MAX_OTP_ATTEMPTS) return sessionGone();
    if (!(await verifyLogin(id, hashSecret(`${id}:${code}`), now))) {
      const attempts = await countOtpAttempt(id);
      if (attempts >= MAX_OTP_ATTEMPTS) return html(400, errorPage('Too many attempts', 'Too many wrong codes. Go back to the application and start again.'));
      return html(422, codePage(id, session.email, 'That code is not right. Check the latest email and try again.', branding));
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

/**
 * The consent page: the member's workspaces to choose from (by display name), the client and where it sends the
 * user back; branded with the workspace the client named if the user belongs to it, else with their only one.
 */
async function consent(id: string, email: string, request: AuthorizationRequest, clientName: string): Promise<Result> {
  const memberships = await membershipsByEmail(email);
  if (!memberships.length) return html(403, errorPage('No workspace', `${email} is not a member of any workspace.`));
  const orgs = await Promise.all(
    memberships.map(async (m) => {
      const branding = await pageBranding(m.orgId);
      return { orgId: m.orgId, name: branding?.displayName ?? m.orgId, branding };
    }),
  );
  const shown = orgs.find((o) => o.orgId === request.organization) ?? (orgs.length === 1 ? orgs[0] : undefined);
  let redirectHost: string;
  try {
    const u = new URL(request.redirectUri);
    redirectHost = u.host || `${u.protocol}${u.pathname}`;
  } catch {
    redirectHost = request.redirectUri;
  }
  return html(200, consentPage(id, { clientName, redirectUri: request.redirectUri, redirectHost, scopes: request.scopes, orgs, email, branding: shown?.branding }));
}

/**
 * Mails the one-time sign-in code, directly rather than through the send worker: the person is waiting at the code
 * page, and a queued code would be stored in plain text in the table and its stream (README "How it works").
 */
async function mailCode(email: string, code: string, clientName: string): Promise<void> {
  const text = `Your sign-in code is ${code}.\n\nEnter it on the sign-in page to authorize ${clientName}. It is valid 10 minutes. If you did not ask for it, ignore this email.`;
  await sendServiceEmail({ to: email, fromName: 'Sign-in', subject: `Your sign-in code: ${code}`, text });
}

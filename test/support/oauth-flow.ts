/**
 * Drives the authorization server's sign-in and consent pages with plain HTTP form posts (what the browser test does
 * with clicks), reading the one-time code from the mail the local SMTP server captured. For tests of the token
 * rules, where a browser per authorization would only add time.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Scope } from '#api/types';
import { createCode, registerClient } from '#db/oauth';
import { storedMail } from '#lib/local/smtp-sink';
import { exchangeCode, s256 } from '#use-cases/oauth';

/** The sign-in code of the newest email to `to`, read from its subject (`Your sign-in code: 123456`). */
export function latestCode(mailDir: string, to: string): string | undefined {
  const mail = storedMail(mailDir).filter((m) => m.to.includes(to));
  const subject = /^Subject:\s*(.*)$/im.exec(mail.at(-1)?.raw.toString('utf8') ?? '')?.[1] ?? '';
  return /(\d{6})/.exec(subject)?.[1];
}

const sessionOf = (html: string) => /name="session" value="([^"]+)"/.exec(html)?.[1];

async function post(baseUrl: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${baseUrl}/oauth/authorize`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
}

/**
 * Signs in as `email` and answers the consent page.
 * @param authorizeUrl the full `/oauth/authorize?...` URL a client built
 * @returns the `Location` the server redirected to (the client's redirect URI with `code` or `error`)
 * @throws Error when a page is not the expected one
 */
export async function signInAndConsent(opts: { baseUrl: string; mailDir: string; authorizeUrl: string; email: string; orgId?: string; decision?: 'approve' | 'deny' }): Promise<URL> {
  const start = await fetch(opts.authorizeUrl, { redirect: 'manual' });
  if (start.status !== 200) throw new Error(`authorize: HTTP ${start.status} ${start.headers.get('location') ?? (await start.text()).slice(0, 300)}`);
  const session = sessionOf(await start.text());
  if (!session) throw new Error('no session on the sign-in page');
  const codePage = await post(opts.baseUrl, { session, step: 'email', email: opts.email });
  if (codePage.status !== 200) throw new Error(`email step: HTTP ${codePage.status}`);
  const code = latestCode(opts.mailDir, opts.email.toLowerCase());
  if (!code) throw new Error(`no sign-in code mailed to ${opts.email}`);
  const consent = await post(opts.baseUrl, { session, step: 'code', code });
  const consentHtml = await consent.text();
  if (consent.status !== 200 || !consentHtml.includes('name="decision"')) throw new Error(`code step: HTTP ${consent.status} ${consentHtml.slice(0, 300)}`);
  const orgId = opts.orgId ?? /name="org" value="([^"]+)"/.exec(consentHtml)?.[1] ?? '';
  const done = await post(opts.baseUrl, { session, step: 'consent', org: orgId, decision: opts.decision ?? 'approve' });
  const location = done.headers.get('location');
  if (done.status !== 302 || !location) throw new Error(`consent step: HTTP ${done.status}`);
  return new URL(location);
}

/**
 * An OAuth access token of `userId` in `orgId`, minted through the authorization server's own code path (a registered
 * client, a code with a PKCE challenge, the code exchange), without the sign-in pages: for tests that need a token per
 * case, not the login flow.
 * @param issuer the API's origin (the local server's base URL)
 */
export async function mintAccessToken(issuer: string, orgId: string, userId: string, scopes: Scope[] = ['read', 'draft', 'actions']): Promise<string> {
  const redirectUri = 'http://127.0.0.1:9/cb';
  const client = await registerClient({ clientName: 'test client', redirectUris: [redirectUri] }, new Date());
  const verifier = randomBytes(32).toString('base64url');
  const now = new Date();
  const code = await createCode({ clientId: client.clientId, redirectUri, codeChallenge: s256(verifier), scopes, resource: issuer, orgId, userId, grantId: randomUUID(), expiresAt: now.getTime() + 60_000 });
  return (await exchangeCode({ code, codeVerifier: verifier, clientId: client.clientId, redirectUri }, issuer, now)).access_token;
}

/**
 * The sign-in and consent pages in a real browser (headless chromium, test/support/browser.ts): a user opens the
 * authorization URL an oauth4webapi client built, proves their email with the code the local SMTP server captured,
 * sees the application's name, where it will be sent and what it may do, picks a workspace and approves; the client
 * then redeems the code. The pages run no script and cannot be framed. Issue 25: the client names the workspace
 * (`organization`), so the sign-in steps and the consent page show its branding in the pages' one stylesheet, and
 * the consent form's redirect to the client passes the page's CSP `form-action` (no violation is logged).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { addUser, createOrganization } from '#db/orgs';
import { updateOrgSettings } from '#db/org-settings';
import { openBrowser, type TestBrowser } from '../support/browser.ts';
import { startTestRuntime, type TestRuntime } from '../support/runtime-harness.ts';
import { latestCode } from '../support/oauth-flow.ts';

let h: TestRuntime;
let b: TestBrowser;
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const REDIRECT = 'http://127.0.0.1:8977/oauth/callback';
const email = `dana+${randomUUID().slice(0, 8)}@example.test`;
let home: Awaited<ReturnType<typeof createOrganization>>;
let second: Awaited<ReturnType<typeof createOrganization>>;

beforeAll(async () => {
  [h, b] = await Promise.all([startTestRuntime('oauth-browser'), openBrowser()]);
  home = await createOrganization({ name: 'Hill Country Realty', ownerEmail: email, ownerFirstName: 'Dana', ownerLastName: 'Whitfield' });
  second = await createOrganization({ name: 'Barton Creek Homes', ownerEmail: `x+${randomUUID().slice(0, 8)}@example.test` });
  await addUser(second.orgId, { email, firstName: 'Dana', lastName: 'Whitfield', role: 'agent' });
  await updateOrgSettings(home.orgId, { displayName: 'Hill Country Realty Group', accentColor: '#7a1f5c' }, new Date());
}, 120_000);
afterAll(async () => Promise.all([h?.close(), b?.close()]));

describe('sign-in and consent in headless chromium', () => {
  it('email → one-time code → consent (client name, redirect host, scopes, workspace) → code the client redeems', { timeout: 120_000 }, async () => {
    const issuer = new URL(h.rt.baseUrl);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    const client = await oauth.processDynamicClientRegistrationResponse(await oauth.dynamicClientRegistrationRequest(as, { client_name: 'Closing Desk <CRM>', redirect_uris: [REDIRECT] }, insecure));
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    for (const [k, v] of Object.entries({ client_id: client.client_id, redirect_uri: REDIRECT, response_type: 'code', scope: 'read actions', state, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', organization: home.orgId })) url.searchParams.set(k, v);

    const page = await b.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // A CSP refusal (a style, an image, a form's redirect) is logged to the console as an error.
    page.on('console', (m) => { if (m.type() === 'error' && !/status of 422/.test(m.text())) errors.push(m.text()); });
    const branded = async () => {
      expect(await page.locator('header.brand span').textContent()).toBe('Hill Country Realty Group');
      expect(await page.locator('button').first().evaluate((el) => (globalThis as any).getComputedStyle(el).backgroundColor)).toBe('rgb(122, 31, 92)');
    };
    // The client's redirect URI: answered here, as the client's own server would.
    let callback: URL | undefined;
    await page.route(`${REDIRECT}**`, (route) => {
      callback = new URL(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/plain', body: 'signed in' });
    });

    const signIn = await page.goto(url.href);
    expect(signIn?.headers()['x-frame-options']).toBe('DENY');
    expect(signIn?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await expect(page.locator('h1').textContent()).resolves.toBe('Sign in to continue to Closing Desk <CRM>');
    await branded();
    expect(signIn?.headers()['content-security-policy']).toContain("style-src 'self'; form-action 'self';");
    await page.getByLabel('Your work email').fill(email.toUpperCase());
    await page.getByRole('button', { name: 'Email me a sign-in code' }).click();
    await page.getByLabel('Sign-in code').waitFor();

    await page.getByLabel('Sign-in code').fill('000000' === latestCode(h.rt.messaging.smtp.directory, email) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('That code is not right');

    await page.getByLabel('Sign-in code').fill(latestCode(h.rt.messaging.smtp.directory, email)!);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    await expect(page.locator('h1').textContent()).resolves.toBe('Authorize Closing Desk <CRM>');
    await expect(page.locator('#redirect-host').textContent()).resolves.toBe('127.0.0.1:8977');
    await expect(page.locator('#scopes li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-scope')))).resolves.toEqual(['read', 'actions']);
    await branded();
    expect(await page.getByRole('radio').evaluateAll((rs) => rs.map((r) => r.parentElement!.textContent!.trim()).sort())).toEqual(['Barton Creek Homes', 'Hill Country Realty Group']);
    await page.getByLabel('Barton Creek Homes').check();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(`${REDIRECT}**`);

    expect(errors).toEqual([]);
    const params = oauth.validateAuthResponse(as, client, callback!, state);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, insecure));
    const health = await fetch(`${h.rt.baseUrl}/api/v1/health`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(await health.json()).toMatchObject({ organizationId: second.orgId, scopes: ['read', 'actions'] });
    expect(home.orgId).not.toBe(second.orgId);
  });
});

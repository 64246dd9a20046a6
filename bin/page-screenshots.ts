/**
 * `npx tsx bin/page-screenshots.ts`: the pictures of the pages in docs/pages.md and the README (docs/pages/*.png),
 * taken in headless chromium (playwright-core, Debian's /usr/bin/chromium or CHROMIUM_PATH) from a throwaway local
 * runtime, for an organization with its branding set (display name, logo, accent colour): the intake form sent back
 * with an error, the disclosure recipient's page, the client portal (agent contact, past key dates), the OAuth
 * sign-in and consent pages, and the plain 404. The logo's https URL is answered by the script (no network). Not
 * part of the test run.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { chromium } from 'playwright-core';
import { startLocalRuntime } from '#lib/local/runtime';
import { createOrganization } from '#db/orgs';
import { createTransaction } from '#use-cases/create-transaction';
import { storedMail } from '#lib/local/smtp-sink';
import { pdfBytes } from '../test/e2e/documents-fixtures.ts';
import { latestCode } from '../test/support/oauth-flow.ts';

const out = path.resolve('docs/pages');
const LOGO = 'https://brand.hillcountry.example/logo.svg';
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="180" height="40" viewBox="0 0 180 40"><path d="M4 34 L20 10 L36 34 Z" fill="#0b6e4f"/><path d="M22 34 L34 18 L46 34 Z" fill="#5fae8f"/>' +
  '<text x="54" y="27" font-family="Georgia,serif" font-size="17" fill="#0b6e4f">HILL COUNTRY</text></svg>';
const OWNER = 'dana@hillcountry.example';
const dataDir = mkdtempSync(path.join(tmpdir(), 'tcs-shots-'));
const rt = await startLocalRuntime({ tableName: 'tcs-shots', port: 0, dataDir });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const org = await createOrganization({ name: 'Hill Country Realty', ownerEmail: OWNER, ownerFirstName: 'Dana', ownerLastName: 'Whitfield' });
  const deal = await createTransaction({ orgId: org.orgId, userId: org.ownerUserId }, { propertyAddress: { street: '1207 Live Oak Ln', city: 'Austin', state: 'TX', zip: '78704' }, transactionType: 'Purchase', side: 'Buyer', status: 'Under Contract' });
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${rt.baseUrl}${p}`, { method, headers: { authorization: `Bearer ${org.keys.actions}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as any;
  };
  const read = async (p: string) => (await fetch(`${rt.baseUrl}${p}`, { headers: { authorization: `Bearer ${org.keys.read}` } }).then((r) => r.json())) as any;
  const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  await call('PATCH', '/api/v1/org/settings', { displayName: 'Hill Country Realty Group', logoUrl: LOGO, accentColor: '#0b6e4f' });
  await call('POST', `/api/v1/transactions/${deal.id}/key-dates`, {
    keyDates: [
      { keyDateType: 'EffectiveDate', dateValue: day(-12), isCustom: true, label: 'Contract effective' },
      { keyDateType: 'OptionPeriodEnd', dateValue: day(-2), isCustom: true, label: 'Option period ends' },
      { keyDateType: 'InspectionDeadline', dateValue: day(6) },
      { keyDateType: 'FinancingDeadline', dateValue: day(15) },
      { keyDateType: 'ClosingDate', dateValue: day(30) },
    ],
  });
  const agent = (await call('POST', '/api/v1/contacts', { firstName: 'Dana', lastName: 'Whitfield', email: OWNER, phone: '(512) 555-0147', company: 'Hill Country Realty Group' })).data;
  await call('POST', `/api/v1/transactions/${deal.id}/contacts`, { contactId: agent.id, role: "Buyer's Agent", isPrimary: true });
  const docs: string[] = [];
  for (const name of ["Seller's Disclosure Notice.pdf", 'HOA Addendum.pdf']) {
    const up = await fetch(`${rt.baseUrl}/api/v1/documents`, { method: 'POST', headers: { authorization: `Bearer ${org.keys.draft}`, 'content-type': 'application/json' }, body: JSON.stringify({ fileName: name, contentBase64: pdfBytes(name).toString('base64'), transactionId: deal.id, extract: false }) }).then((r) => r.json() as any);
    for (let i = 0; i < 100 && (await read(`/api/v1/documents/${up.data.documentId}`)).data.uploadState !== 'uploaded'; i++) await new Promise((r) => setTimeout(r, 100));
    docs.push(up.data.documentId);
  }
  const pkg = (await call('POST', '/api/v1/disclosure-packages', { name: 'Seller disclosures – 1207 Live Oak Ln', coverMessage: 'Please review these before your option period ends.', transactionId: deal.id, documentIds: docs, requireAck: true })).data;
  await call('POST', `/api/v1/disclosure-packages/${pkg.id}/recipients`, { email: 'pat@example.com', displayLabel: 'Pat Buyer', audienceTier: 'buyer', contactId: null, expiresAt: null });
  const mail = storedMail(rt.messaging.smtp.directory).at(-1)!.raw.toString('utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const disclosureUrl = /http:\/\/\S+\/d\/[A-Za-z0-9_-]{43}/.exec(mail)![0];
  const formUrl = (await read(`/api/v1/transactions/${deal.id}/form-links`)).data[0].url;
  const portalUrl = (await read(`/api/v1/transactions/${deal.id}/portal-link`)).data.url;

  // An OAuth client asking for this workspace (`organization`), as the OAuth pages show it.
  const redirect = 'http://127.0.0.1:8977/oauth/callback';
  const client = await fetch(`${rt.baseUrl}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'Closing Desk CRM', redirect_uris: [redirect] }) }).then((r) => r.json() as any);
  const authorize = new URL('/oauth/authorize', rt.baseUrl);
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  for (const [k, v] of Object.entries({ response_type: 'code', client_id: client.client_id, redirect_uri: redirect, scope: 'read actions', code_challenge: challenge, code_challenge_method: 'S256', state: 's', organization: org.orgId })) authorize.searchParams.set(k, v);

  mkdirSync(out, { recursive: true });
  const page = await (await browser.newContext({ viewport: { width: 720, height: 900 } })).newPage();
  await page.route(LOGO, (route) => route.fulfill({ status: 200, contentType: 'image/svg+xml', body: LOGO_SVG }));
  const shot = (name: string) => page.screenshot({ path: path.join(out, `${name}.png`), fullPage: true });
  await page.goto(formUrl);
  await page.getByLabel('Full name').fill('Maria Delgado');
  await page.getByLabel('Email').fill('maria@');
  await page.getByLabel('Financing').selectOption('Conventional');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.locator('.error').first().waitFor();
  await shot('intake-form-error');
  await page.goto(disclosureUrl);
  await shot('disclosure');
  await page.goto(portalUrl);
  await shot('portal');
  await page.goto(authorize.href);
  await page.getByLabel('Your work email').fill(OWNER);
  await shot('oauth-sign-in');
  await page.getByRole('button', { name: 'Email me a sign-in code' }).click();
  await page.getByLabel('Sign-in code').fill(latestCode(rt.messaging.smtp.directory, OWNER)!);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Approve' }).waitFor();
  await shot('oauth-consent');
  await page.goto(`${rt.baseUrl}/d/${'x'.repeat(43)}`);
  await shot('not-found');
  console.log(`screenshots in ${out}`);
} finally {
  await browser.close();
  await rt.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

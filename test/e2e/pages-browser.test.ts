/**
 * The public pages in headless chromium (playwright-core), against the full local runtime with an organization
 * subscribed to every event: a client fills in an intake form (a bad email first: the page shows the error and keeps
 * what was typed), opens the client portal, and a disclosure recipient opens the link from their email and
 * acknowledges, then presses Download and receives the PDF's bytes (the 303 to the documents bucket passes the
 * page's CSP `form-action`), which the activity report logs once; `form.submission_received` and
 * `disclosure.recipient_viewed` reach the webhook receiver, signed. The pages show the organization's branding
 * (name, logo, accent colour from the one stylesheet). Revoked, the disclosure link and the portal link each show
 * the plain 404 page. No page runs a script or breaks its CSP, and no page's source holds its link's token.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { storedMail } from '#lib/local/smtp-sink';
import { openBrowser, type TestBrowser } from '../support/browser.ts';
import { setupSubscribedDeal, type WebhookHarness } from '../support/runtime-harness.ts';
import { until } from '../support/webhook-receiver.ts';
import { pdfBytes } from './documents-fixtures.ts';

const cleanups: (() => Promise<unknown>)[] = [];
let h: WebhookHarness;
let b: TestBrowser;
let dealId: string;

beforeAll(async () => {
  [h, b] = await Promise.all([setupSubscribedDeal(cleanups), openBrowser()]);
  dealId = h.maker.dealId;
  await h.api.ok('PATCH', '/api/v1/org/settings', { key: h.org.keys.actions, body: { displayName: 'Hook Street Realty', logoUrl: LOGO, accentColor: '#0b6e4f' } });
}, 60_000);
afterAll(async () => {
  await b?.close();
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

/** The organization's logo: an https URL, answered here as its CDN would (the test has no network). */
const LOGO = 'https://cdn.hookstreet.example/logo.svg';
const LOGO_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" fill="#0b6e4f"/></svg>';

/** The page shows the organization's name, its logo loaded (CSP `img-src`) and the accent on its buttons. */
async function expectBranded(page: Page): Promise<void> {
  expect(await page.locator('header.brand span').textContent()).toBe('Hook Street Realty');
  await expect.poll(() => page.locator('header.brand img').evaluate((img: any) => img.complete && img.naturalWidth)).toBe(120);
  expect(await page.locator('main').evaluate((m) => (globalThis as any).getComputedStyle(m).borderTopColor)).toBe('rgb(11, 110, 79)');
}

/** A page that records script errors and CSP violations (chromium logs them to the console). */
async function watched(): Promise<{ page: Page; problems: string[] }> {
  const page = await b.newPage();
  await page.route(LOGO, (route) => route.fulfill({ status: 200, contentType: 'image/svg+xml', body: LOGO_SVG }));
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  // A page answered 422 (a form sent back with errors) or 404 is expected; chromium logs its status as an error.
  page.on('console', (m) => { if (m.type() === 'error' && !/status of (422|404)/.test(m.text())) problems.push(m.text()); });
  return { page, problems };
}

const tokenOf = (url: string) => new URL(url).pathname.split('/')[2]!;
const received = (type: string) => [...h.receiver.received.values()].filter((e) => e.eventType === type);

describe('public pages in a browser', () => {
  it('a client fills in the intake form; the submission shows in intake status and reaches the webhook', { timeout: 60_000 }, async () => {
    const links = await h.api.ok('GET', `/api/v1/transactions/${dealId}/form-links`, { key: h.org.keys.read });
    const url: string = links.data[0].url;
    const { page, problems } = await watched();
    await page.goto(url);
    expect(await page.locator('h1').textContent()).toBe('Buyer intake');
    expect(await page.content()).not.toContain(tokenOf(url));
    await expectBranded(page);
    expect(await page.getByRole('button', { name: 'Send' }).evaluate((el) => (globalThis as any).getComputedStyle(el).backgroundColor)).toBe('rgb(11, 110, 79)');
    await page.getByLabel('Full name').fill('Maria Delgado');
    await page.getByLabel('Email').fill('maria@');
    await page.getByLabel('Financing').selectOption('Conventional');
    await page.getByLabel('Anything we should know').fill('Pre-approved with Hill Country Lending.');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('.error').first().textContent()).toContain('email address');
    expect(await page.getByLabel('Full name').inputValue()).toBe('Maria Delgado');
    expect(await page.getByLabel('Anything we should know').inputValue()).toBe('Pre-approved with Hill Country Lending.');
    await page.getByLabel('Email').fill('maria@example.com');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    expect(problems).toEqual([]);

    const status = (await h.api.ok('GET', `/api/v1/transactions/${dealId}/intake-status`, { key: h.org.keys.read })).data;
    expect(status.forms[0]).toMatchObject({ formPurpose: 'buyer_intake', status: 'submitted', submissionCount: 1 });
    const event = await until('form.submission_received at the receiver', () => received('form.submission_received')[0], 15_000);
    expect(event.body.data).toMatchObject({ transactionId: dealId, formPurpose: 'buyer_intake', submissionId: status.forms[0].latestSubmissionId });
  });

  it('a recipient opens the disclosure from the email and acknowledges; revoked, it and the portal link are a plain 404', { timeout: 60_000 }, async () => {
    const uploaded = pdfBytes('sd');
    const up = await h.api.ok('POST', '/api/v1/documents', { key: h.org.keys.draft, body: { fileName: 'sellers-disclosure.pdf', contentBase64: uploaded.toString('base64'), transactionId: dealId, extract: false } });
    await until('upload stored', async () => (await h.api.ok('GET', `/api/v1/documents/${up.data.documentId}`, { key: h.org.keys.read })).data.uploadState === 'uploaded', 10_000);
    const pkg = (await h.api.ok('POST', '/api/v1/disclosure-packages', { key: h.org.keys.actions, body: { name: 'Seller disclosures', coverMessage: 'Please review before the option period ends.', transactionId: dealId, documentIds: [up.data.documentId], requireAck: true } })).data;
    const rcpt = (await h.api.ok('POST', `/api/v1/disclosure-packages/${pkg.id}/recipients`, { key: h.org.keys.actions, body: { email: 'pat@example.com', displayLabel: 'Pat Buyer', audienceTier: 'buyer', contactId: null, expiresAt: null } })).data;
    const mail = await until('the share email', () => storedMail(h.rt.messaging.smtp.directory).find((m) => m.raw.toString('utf8').includes('To: pat@example.com')), 10_000);
    const url = /http:\/\/\S+\/d\/[A-Za-z0-9_-]{43}/.exec(mail.raw.toString('utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '='))![0];

    const { page, problems } = await watched();
    await page.goto(url);
    expect(await page.locator('h1').textContent()).toBe('Seller disclosures');
    expect(await page.getByRole('button', { name: 'Download sellers-disclosure.pdf' }).count()).toBe(1);
    expect(await page.content()).not.toContain(tokenOf(url));
    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await expect.poll(() => page.locator('.error').textContent()).toContain('tick the box');
    await page.getByLabel('I received and reviewed these documents').check();
    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await page.getByText('You acknowledged receipt on').waitFor();
    await expectBranded(page);
    // Download: the form's POST answers a 303 to the documents bucket (another origin), which Chromium checks
    // against the page's form-action; a refusal would be logged to the console and no download would start.
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 15_000 }), page.getByRole('button', { name: 'Download sellers-disclosure.pdf' }).click()]);
    expect(download.suggestedFilename()).toBe('sellers-disclosure.pdf');
    const bytes = readFileSync((await download.path())!);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(bytes.length).toBe(uploaded.length);
    expect(bytes.equals(uploaded)).toBe(true);
    expect(problems).toEqual([]);

    const viewed = await until('disclosure.recipient_viewed at the receiver', () => received('disclosure.recipient_viewed')[0], 15_000);
    expect(viewed.body.data).toMatchObject({ packageId: pkg.id, recipientId: rcpt.id, transactionId: dealId });
    const activity = (await h.api.ok('GET', `/api/v1/disclosure-packages/${pkg.id}/activity`, { key: h.org.keys.read })).data;
    expect(activity.recipients[0]).toMatchObject({ status: 'acknowledged', viewCount: 2 });
    expect(activity.events.map((e: any) => e.action)).toEqual(['invited', 'viewed', 'acknowledged', 'viewed', 'downloaded']);

    const portal = (await h.api.ok('GET', `/api/v1/transactions/${dealId}/portal-link`, { key: h.org.keys.read })).data;
    await page.goto(portal.url);
    expect(await page.locator('h1').textContent()).toContain('1 Hook St');
    expect(await page.locator('main').textContent()).toContain('sellers-disclosure.pdf');
    await expectBranded(page);

    await h.api.ok('DELETE', `/api/v1/disclosure-packages/${pkg.id}/recipients/${rcpt.id}`, { key: h.org.keys.actions });
    const res = await page.goto(url);
    expect(res?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('This link is not available');

    // The client portal, revoked (designed here: DELETE .../portal-link): reloading it shows the same plain 404.
    await h.api.ok('DELETE', `/api/v1/transactions/${dealId}/portal-link`, { key: h.org.keys.actions });
    const revokedPortal = await page.goto(portal.url);
    expect(revokedPortal?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('This link is not available');
    expect(await page.locator('main').textContent()).not.toContain('1 Hook St');
    expect(problems).toEqual([]);
  });
});

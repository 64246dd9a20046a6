/**
 * `npx tsx bin/page-screenshots.ts`: the pictures of the public pages in docs/pages.md (docs/pages/*.png), taken in headless
 * chromium (playwright-core, Debian's /usr/bin/chromium or CHROMIUM_PATH) from a throwaway local runtime: the intake
 * form sent back with an error, the disclosure recipient's page, the client portal and the plain 404. Not part of
 * the test run.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startLocalRuntime } from '#lib/local/runtime';
import { createOrganization } from '#db/orgs';
import { createTransaction } from '#use-cases/create-transaction';
import { storedMail } from '#lib/local/smtp-sink';
import { pdfBytes } from '../test/e2e/documents-fixtures.ts';

const out = path.resolve('docs/pages');
const dataDir = mkdtempSync(path.join(tmpdir(), 'tcs-shots-'));
const rt = await startLocalRuntime({ tableName: 'tcs-shots', port: 0, dataDir });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const org = await createOrganization({ name: 'Hill Country Realty', ownerEmail: 'dana@hillcountry.example' });
  const deal = await createTransaction({ orgId: org.orgId, userId: org.ownerUserId }, { propertyAddress: { street: '1207 Live Oak Ln', city: 'Austin', state: 'TX', zip: '78704' }, transactionType: 'Purchase', side: 'Buyer', status: 'Under Contract' });
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${rt.baseUrl}${p}`, { method, headers: { authorization: `Bearer ${org.keys.actions}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as any;
  };
  const read = async (p: string) => (await fetch(`${rt.baseUrl}${p}`, { headers: { authorization: `Bearer ${org.keys.read}` } }).then((r) => r.json())) as any;
  const soon = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  await call('POST', `/api/v1/transactions/${deal.id}/key-dates`, { keyDates: [{ keyDateType: 'InspectionDeadline', dateValue: soon(6) }, { keyDateType: 'FinancingDeadline', dateValue: soon(15) }, { keyDateType: 'ClosingDate', dateValue: soon(30) }] });
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

  mkdirSync(out, { recursive: true });
  const page = await (await browser.newContext({ viewport: { width: 720, height: 900 } })).newPage();
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
  await page.goto(`${rt.baseUrl}/d/${'x'.repeat(43)}`);
  await shot('not-found');
  console.log(`screenshots in ${out}`);
} finally {
  await browser.close();
  await rt.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

/** The reference page at /docs renders in a real browser from the local server alone (no CDN, no script errors). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, type TestBrowser } from '../support/browser.ts';
import { startTestApi, type TestApi } from '../support/http-client.ts';

let t: TestApi;
let b: TestBrowser;
beforeAll(async () => {
  [t, b] = await Promise.all([startTestApi(), openBrowser()]);
});
afterAll(async () => Promise.all([t?.close(), b?.close()]));

describe('GET /docs in headless chromium', () => {
  it('renders the operations of the OpenAPI document, fetching nothing off this server', { timeout: 60_000 }, async () => {
    const page = await b.newPage();
    const foreign: string[] = [];
    const errors: string[] = [];
    const offSite = (url: string) => !url.startsWith(t.baseUrl) && !url.startsWith('data:') && !url.startsWith(`blob:${t.baseUrl}`);
    // A request the page's CSP blocks still raises 'request'; only one that got an answer left the browser.
    page.on('response', (res) => { if (offSite(res.url())) foreign.push(res.url()); });
    page.on('requestfailed', (req) => { if (offSite(req.url()) && !/^csp$|BLOCKED_BY_CSP/.test(req.failure()?.errorText ?? '')) foreign.push(req.url()); });
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto(`${t.baseUrl}/docs`);
    await page.locator('[data-section-id="operation/getTransaction"]').waitFor({ timeout: 30_000 });

    expect(await page.locator('[data-section-id^="operation/"]').count()).toBeGreaterThan(50);
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    expect(await page.locator('[data-section-id="operation/getTransaction"]').textContent()).toContain('One deal with its key dates');
  });
});

/**
 * A real headless browser for tests of server-rendered pages: Debian's chromium (`apt-get install chromium`,
 * installed by .ci/run and named in the README's requirements) driven by playwright-core.
 *
 * `openBrowser()` launches one browser per test file; each test takes a fresh context (no cookies or storage
 * shared between tests). A missing chromium fails loudly: browser tests never skip.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Where Debian's package puts the browser; CHROMIUM_PATH overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Flags for a closed network and a root user: no sandbox (root), no background networking, sync,
 * component updates or QUIC (each would try to reach Google's hosts and be refused).
 */
const FLAGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];

/** A launched browser and a way to get fresh pages from it. */
export interface TestBrowser {
  readonly browser: Browser;
  /** A page in a new, empty context (own cookies and storage). Closed by `close()`. */
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Launches headless chromium.
 * @throws Error naming the install command when the binary is missing
 */
export async function openBrowser(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`No browser at ${CHROMIUM_PATH}: install it with \`apt-get install -y chromium\` (see README, Requirements) or set CHROMIUM_PATH.`);
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: FLAGS });
  const contexts: BrowserContext[] = [];
  return {
    browser,
    async newPage() {
      const context = await browser.newContext();
      contexts.push(context);
      return context.newPage();
    },
    async close() {
      await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
      await browser.close();
    },
  };
}

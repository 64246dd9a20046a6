/**
 * CORS from a real browser: a page served from another origin (a second 127.0.0.1 port) calls the local API with
 * a bearer key, as an integrator's web app would; chromium runs the preflight and enforces the answer
 * (lib/local/cors.ts mirrors the HTTP API's corsPreflight, lib/edge-settings.ts).
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, type TestBrowser } from '../support/browser.ts';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';

let t: TestApi;
let b: TestBrowser;
let org: TestOrg;
let app: http.Server;
let appOrigin: string;
beforeAll(async () => {
  [t, b] = await Promise.all([startTestApi(), openBrowser()]);
  org = await t.newOrg('Cors Realty');
  app = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>TC app</title>'));
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appOrigin = `http://127.0.0.1:${(app.address() as { port: number }).port}`;
});
afterAll(async () => Promise.all([t?.close(), b?.close(), new Promise((r) => app?.close(r))]));

describe('a web app on another origin', () => {
  it('creates a contact with a bearer key (a preflighted call), then reads the 422 of a duplicate email', async () => {
    const page = await b.newPage();
    await page.goto(appOrigin);
    const call = (): Promise<any> => page.evaluate(async ({ base, key }) => {
      const res = await fetch(`${base}/api/v1/contacts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'cors-contact-1' },
        body: JSON.stringify({ firstName: 'Odalys', lastName: 'Brightwater', email: 'odalys@cors.example' }),
      });
      return { status: res.status, body: await res.json() };
    }, { base: t.baseUrl, key: org.keys.actions });

    const first = await call();
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ name: 'Odalys Brightwater' });
    const again = await call();
    expect(again.status).toBe(422);
    expect(again.body.error.fields.email).toContain(first.body.data.id);
  });

  it('sees the envelope of a refused call (the error answer carries the CORS headers too)', async () => {
    const page = await b.newPage();
    await page.goto(appOrigin);
    const res: any = await page.evaluate(async (base) => {
      const r = await fetch(`${base}/api/v1/contacts`, { headers: { authorization: 'Bearer mcp_at_not-a-key' } });
      return { status: r.status, body: await r.json() };
    }, t.baseUrl);

    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });
});

/** `npm start` serves the OpenAPI document and the reference page (with its vendored renderer, no CDN). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/http-client.ts';

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(async () => t?.close());

describe('self-description on the local server', () => {
  it('GET / and GET /api/v1 answer with links to the reference, the document, the health check and MCP', async () => {
    for (const path of ['/', '/api/v1']) {
      const res = await fetch(`${t.baseUrl}${path}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { links: Record<string, string> };
      expect(body.links).toEqual({ docs: '/docs', openapi: '/openapi.json', health: '/api/v1/health', mcp: '/mcp' });
      expect((await fetch(`${t.baseUrl}${body.links.docs}`)).status).toBe(200);
      expect((await fetch(`${t.baseUrl}${body.links.openapi}`)).status).toBe(200);
    }
    // Only the exact paths: a typo under /api/v1 is still the envelope's 404.
    expect((await fetch(`${t.baseUrl}/api/v1/`)).status).toBe(404);
  });

  it('GET /openapi.json is the registry\'s document, its server the local base URL', async () => {
    const res = await fetch(`${t.baseUrl}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as any;
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.servers[0].variables.baseUrl.default).toBe(t.baseUrl);
    expect(doc.paths['/api/v1/transactions/{transactionId}'].get.operationId).toBe('getTransaction');
  });

  it('GET /docs renders the document with the renderer served from this server', async () => {
    const html = await (await fetch(`${t.baseUrl}/docs`)).text();
    expect(html).toContain('spec-url="/openapi.json"');
    const src = /<script src="([^"]+)"/.exec(html)![1];
    expect(src.startsWith('/')).toBe(true);
    const js = await fetch(`${t.baseUrl}${src}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect((await js.text()).length).toBeGreaterThan(100_000);
  });
});

/**
 * End-to-end harness: a fresh table, the local runtime's HTTP server on 127.0.0.1 (port 0), organizations
 * made with the operator path, and a small `fetch` wrapper that checks every response against docs/openapi.json.
 */
import { createOrganization } from '#db/orgs';
import { startLocalApi, type LocalApi } from '#lib/local/http-server';
import { useTestTable } from './test-table.ts';
import { assertConforms } from './openapi-conformance.ts';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestOrg {
  orgId: string;
  ownerUserId: string;
  keys: { read: string; draft: string; actions: string };
}

export interface TestApi {
  baseUrl: string;
  api: LocalApi;
  /** Calls the API; `body` objects are sent as JSON, strings verbatim. */
  call<T = any>(method: string, path: string, opts?: { key?: string; body?: unknown; headers?: Record<string, string> }): Promise<ApiResponse<T>>;
  newOrg(name?: string): Promise<TestOrg>;
  close(): Promise<void>;
}

export async function startTestApi(): Promise<TestApi> {
  await useTestTable();
  const api = await startLocalApi({ port: 0 });
  return {
    baseUrl: api.baseUrl,
    api,
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.key) headers.authorization = `Bearer ${opts.key}`;
      let body: string | undefined;
      if (opts.body !== undefined) {
        body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(api.baseUrl + path, { method, headers, body });
      const text = await res.text();
      // Every e2e response is checked against the OpenAPI document (status and body).
      await assertConforms({ method, path, status: res.status, headers: res.headers, text });
      let parsed: any;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
    async newOrg(name = 'Test Realty') {
      return createOrganization({ name, ownerEmail: `owner+${Math.random().toString(36).slice(2)}@example.test` });
    },
    close: () => api.close(),
  };
}

/**
 * The deployed MCP endpoint (lib/mcp-endpoint.ts) run from the synthesized assembly, with the MCP SDK's own client
 * over Streamable HTTP at `/mcp`: the RFC 9728 challenge without a credential, the tools an organization key can
 * call (the list bundled at synthesis, filtered by the catalog), a read and a write through the API's own pipeline,
 * an OAuth access token (signed by KMS; verified by the API with the key the OAuth server published, no KMS call) as
 * the credential, and the latency a tool call adds over the same request
 * sent to the API directly (printed). Ends with the IAM verdict on every call the functions made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AssemblyRuntime } from '#lib/local/assembly/runtime';
import { apiClient, newDeal, newOrg, type Api } from '../support/webhook-receiver.ts';
import { authorizationCodeToken } from '../support/oauth-client.ts';
import { ASSEMBLY_START_TIMEOUT_MS, functionLogs, startTestAssembly } from '../support/assembly-harness.ts';
import { expectOnlyAllowedCalls } from '../support/assembly-iam.ts';

let rt: AssemblyRuntime;
let api: Api;
let org: Awaited<ReturnType<typeof newOrg>>;
let dealId: string;
const clients: Client[] = [];

type ToolResult = { isError?: boolean; structuredContent?: any; _meta?: { httpStatus?: number } };

async function connect(bearer: string): Promise<Client> {
  const client = new Client({ name: 'assembly-smoke', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${rt.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${bearer}` } } }));
  clients.push(client);
  return client;
}

/** Median and 95th percentile (ms) of `n` sequential runs of `run`. */
async function timings(n: number, run: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await run();
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] * 10) / 10;
  return { p50: at(0.5), p95: at(0.95) };
}

beforeAll(async () => {
  rt = await startTestAssembly('smoke-mcp');
  api = apiClient(rt.baseUrl);
  org = await newOrg('Assembly MCP Realty');
  dealId = await newDeal(org, '30 Protocol Pl');
}, ASSEMBLY_START_TIMEOUT_MS);
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await rt?.stop();
});

describe('the MCP endpoint of the synthesized assembly', () => {
  it('answers a request without a credential with 401 and the RFC 9728 challenge', async () => {
    const res = await fetch(`${rt.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status, functionLogs(rt, 3)).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="https?:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/mcp"$/);
  });

  it('lists the tools the key can call, from the list bundled at synthesis', async () => {
    const read = (await (await connect(org.keys.read)).listTools()).tools.map((t) => t.name);
    expect(read).toContain('getTransaction');
    expect(read).not.toContain('createTask');
    const actions = (await (await connect(org.keys.actions)).listTools()).tools;
    expect(actions.length).toBeGreaterThan(100);
    expect(actions.find((t) => t.name === 'createTask')?.inputSchema.required).toEqual(['transactionId', 'body']);
  }, 30_000);

  it('calls a read and a write through the API pipeline', async () => {
    const client = await connect(org.keys.actions);
    const got = (await client.callTool({ name: 'getTransaction', arguments: { transactionId: dealId } })) as ToolResult;
    expect(got.isError, JSON.stringify(got)).toBeFalsy();
    expect(got.structuredContent.data).toMatchObject({ id: dealId });
    const created = (await client.callTool({ name: 'createTask', arguments: { transactionId: dealId, body: { title: 'Order the title commitment' } } })) as ToolResult;
    expect(created._meta?.httpStatus, JSON.stringify(created)).toBe(200);
    const deal = await api.ok('GET', `/api/v1/transactions/${dealId}`, { key: org.keys.read });
    expect(deal.data.tasks.map((t: { id: string }) => t.id)).toContain(created.structuredContent.data.id);
    // The API's rules apply: an unknown body field is its 422.
    const refused = (await client.callTool({ name: 'createTask', arguments: { transactionId: dealId, body: { title: 'x', colour: 'red' } } })) as ToolResult;
    expect(refused).toMatchObject({ isError: true, _meta: { httpStatus: 422 } });
  }, 30_000);

  it('takes an OAuth access token as the credential', async () => {
    const ownerEmail = (await api.ok('GET', '/api/v1/org/users', { key: org.keys.read })).data.find((u: { role: string }) => u.role === 'owner').email;
    const token = await authorizationCodeToken({ baseUrl: rt.baseUrl, mailDir: rt.smtp.directory, email: ownerEmail, orgId: org.orgId, scope: 'read', clientName: 'MCP client' });
    const client = await connect(token);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('getTransaction');
    expect(names).not.toContain('createTask'); // the token was granted `read` only
    const got = (await client.callTool({ name: 'getTransaction', arguments: { transactionId: dealId } })) as ToolResult;
    expect(got.structuredContent.data.id).toBe(dealId);
    // Straight to the transactions group's asset, whose token check is a lazy chunk (lazy/access-token-signature.mjs).
    const direct = await fetch(`${rt.baseUrl}/api/v1/transactions/${dealId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(direct.status, functionLogs(rt, 3)).toBe(200);
    expect(((await direct.json()) as { data: { id: string } }).data.id).toBe(dealId);
    const [header, payload] = token.split('.');
    const forged = await fetch(`${rt.baseUrl}/api/v1/transactions/${dealId}`, { headers: { authorization: `Bearer ${header}.${payload}.AAAA` } });
    expect(forged.status).toBe(401);
    // Only the OAuth server uses the signing key; the API function verified the token with the published key item.
    const kmsCallers = new Set(rt.calls.filter((c) => c.action === 'kms:Sign' || c.action === 'kms:GetPublicKey').map((c) => c.caller));
    expect([...kmsCallers]).toEqual([expect.stringMatching(/^OAuthServerFunction/)]);
  }, 60_000);

  it('adds a measured latency to a tool call over the same API request (printed)', async () => {
    const client = await connect(org.keys.read);
    const viaMcp = () => client.callTool({ name: 'getTransaction', arguments: { transactionId: dealId } });
    // The same request without the MCP hop (plain fetch: no response checks on either side).
    const direct = async () => {
      const res = await fetch(`${rt.baseUrl}/api/v1/transactions/${dealId}`, { headers: { authorization: `Bearer ${org.keys.read}` } });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    };
    await timings(3, viaMcp); // warm both sandboxes
    await timings(3, direct);
    const mcp = await timings(30, viaMcp);
    const rest = await timings(30, direct);
    console.log(`MCP tools/call getTransaction on the assembly runtime: p50 ${mcp.p50} ms, p95 ${mcp.p95} ms; the same GET sent to the API directly: p50 ${rest.p50} ms, p95 ${rest.p95} ms`);
    expect(mcp.p50).toBeGreaterThan(0);
    expect(mcp.p50).toBeLessThan(5_000);
  }, 120_000);

  it('made only AWS calls the deployed IAM allows (roles, key, bucket and queue policies, evaluated offline)', () => expectOnlyAllowedCalls(rt, 'smoke-mcp', 2), 60_000);
});

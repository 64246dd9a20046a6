/**
 * The MCP endpoint end to end, with the SDK's own client over Streamable HTTP against the local runtime: tools
 * listed per credential, one read and one write operation called, and the API's credentials, scopes and
 * validation applied to tool calls. A strict client lists the tools without a warning: the SDK's own tool-name
 * check, and Ajv in strict mode on every input schema (test/support/strict-schema.ts).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { validateToolName } from '@modelcontextprotocol/sdk/shared/toolNameValidation.js';
import { strictSchemaProblems } from '../support/strict-schema.ts';
import { startTestRuntime, type TestRuntime } from '../support/runtime-harness.ts';
import { apiClient, newDeal, newOrg } from '../support/webhook-receiver.ts';

let runtime: TestRuntime;
let org: Awaited<ReturnType<typeof newOrg>>;
let dealId: string;
const clients: Client[] = [];

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${runtime.rt.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  clients.push(client);
  return client;
}

type ToolResult = { isError?: boolean; structuredContent?: any; content: { type: string; text?: string }[] };

beforeAll(async () => {
  runtime = await startTestRuntime('mcp');
  org = await newOrg('MCP Realty');
  dealId = await newDeal(org, '12 Protocol Ln');
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await runtime?.close();
});

describe('MCP server (Streamable HTTP at /mcp)', () => {
  it('lists the operations the key can call as tools, with input schemas from the zod schemas', async () => {
    const read = await (await connect(org.keys.read)).listTools();
    const names = read.tools.map((t) => t.name);
    expect(names).toContain('getTransaction');
    expect(names).toContain('listTransactions');
    expect(names).not.toContain('createTask'); // draft scope
    const get = read.tools.find((t) => t.name === 'getTransaction')!;
    expect(get.inputSchema.required).toEqual(['transactionId']);
    expect(get.annotations?.readOnlyHint).toBe(true);
    const draft = (await (await connect(org.keys.draft)).listTools()).tools;
    expect(draft.find((t) => t.name === 'createTask')?.inputSchema.required).toEqual(['transactionId', 'body']);
    expect(draft.map((t) => t.name)).not.toContain('createWebhook'); // actions scope
    const actions = (await (await connect(org.keys.actions)).listTools()).tools.map((t) => t.name);
    expect(actions).toContain('createWebhook');
    expect(actions.length).toBeGreaterThan(draft.length);
  });

  it('lists tools a strict client takes without a warning: names, titles and every input schema', async () => {
    const warn = vi.spyOn(console, 'warn');
    try {
      const { tools } = await (await connect(org.keys.actions)).listTools();
      expect(tools.length).toBeGreaterThan(100);
      const problems = tools.flatMap((t) => [
        ...validateToolName(t.name).warnings.map((w) => `${t.name}: name: ${w}`),
        ...strictSchemaProblems(t.inputSchema).map((p) => `${t.name}: ${p}`),
        ...(t.title && t.title.split(' ').length <= 6 ? [] : [`${t.name}: title ${JSON.stringify(t.title)} is not a few words`]),
      ]);
      expect(problems).toEqual([]);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('calls a read operation through the API pipeline', async () => {
    const client = await connect(org.keys.read);
    const res = (await client.callTool({ name: 'getTransaction', arguments: { transactionId: dealId } })) as ToolResult;
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent.data.id).toBe(dealId);
    expect(res.structuredContent.data.address).toContain('12 Protocol Ln');
    const list = (await client.callTool({ name: 'listTransactions', arguments: { pageSize: '1' } })) as ToolResult;
    expect(list.structuredContent.pageSize).toBe(1);
  });

  it('calls a write operation, whose effect the HTTP API then shows', async () => {
    const client = await connect(org.keys.draft);
    const res = (await client.callTool({ name: 'createTask', arguments: { transactionId: dealId, body: { title: 'Order survey via MCP', priority: 2 } } })) as ToolResult;
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent.data).toMatchObject({ title: 'Order survey via MCP', priority: 2, transactionId: dealId });
    const deal = await apiClient(runtime.rt.baseUrl).ok('GET', `/api/v1/transactions/${dealId}`, { key: org.keys.read });
    expect(deal.data.tasks.map((t: { title: string }) => t.title)).toContain('Order survey via MCP');
  });

  it('applies the credential\'s scopes and the validation of the API (errors in the envelope, isError)', async () => {
    const read = await connect(org.keys.read);
    const denied = (await read.callTool({ name: 'createTask', arguments: { transactionId: dealId, body: { title: 'x' } } })) as ToolResult;
    expect(denied.isError).toBe(true);
    expect(denied.structuredContent.error.code).toBe('insufficient_scope');
    const invalid = (await read.callTool({ name: 'getTransaction', arguments: { transactionId: 'not-a-uuid' } })) as ToolResult;
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent.error).toMatchObject({ code: 'validation_error', fields: { transactionId: expect.any(String) } });
  });

  it('refuses a missing or unknown credential', async () => {
    const res = await fetch(`${runtime.rt.baseUrl}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const bogus = await connect('mcp_at_not-a-real-key');
    await expect(bogus.listTools()).rejects.toThrow(/unauthorized/);
  });
});

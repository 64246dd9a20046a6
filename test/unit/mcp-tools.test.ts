/** MCP tools derived from the registry (lib/mcp/tools.ts): one per implemented operation, calls mapped onto routes. */
import { describe, expect, it } from 'vitest';
import { isImplemented, titleOf } from '#api/operation';
import { loadOperations } from '#lib/registry';
import { toolCallEvent, toolOf, toolOperations } from '#lib/mcp/tools';
import { strictSchemaProblems } from '../support/strict-schema.ts';

const ops = await loadOperations();
const byId = (id: string) => ops.find((op) => op.operationId === id)!;

describe('MCP tools', () => {
  it('has one tool per implemented operation, named by operationId, described by its summary', () => {
    const tools = toolOperations(ops).map(toolOf);
    expect(tools.map((t) => t.name).sort()).toEqual(ops.filter(isImplemented).map((op) => op.operationId).sort());
    for (const t of tools) expect(t.description.startsWith(byId(t.name).summary)).toBe(true);
  });

  it('titles each tool in a few words (its operationId in words unless the module names it)', () => {
    const tools = toolOperations(ops).map(toolOf);
    for (const t of tools) expect(t.title).toBe(titleOf(byId(t.name)));
    expect(toolOf(byId('createTransactionReminder')).title).toBe('Create transaction reminder');
    expect(Math.max(...tools.map((t) => t.title.split(' ').length))).toBeLessThanOrEqual(6);
  });

  it('gives input schemas a strict validator accepts without a warning: no type arrays, known formats, refs that resolve', () => {
    const problems = toolOperations(ops).flatMap((op) => strictSchemaProblems(toolOf(op).inputSchema).map((p) => `${op.operationId}: ${p}`));
    expect(problems).toEqual([]);
    // The checker does flag what strict clients refuse (the check can fail).
    expect(strictSchemaProblems({ type: 'object', properties: { a: { type: ['boolean', 'null'] } } })).toHaveLength(1);
    expect(strictSchemaProblems({ type: 'object', properties: { a: { $ref: '#/components/schemas/Nowhere' } } })).not.toEqual([]);
    // The recursive JSON value of a free-form body travels in the tool schema's own $defs.
    const payload = toolOf(byId('updateProposalPayload')).inputSchema;
    expect(Object.keys(payload.$defs ?? {})).not.toEqual([]);
    expect(JSON.stringify(payload)).not.toContain('#/components/');
  });

  it('maps arguments onto the route: path parameters into the path, the rest into the query, body as JSON', () => {
    const list = toolCallEvent(byId('listTransactions'), { q: 'Elm', pageSize: 5 }, 'mcp_at_x');
    expect(list).toMatchObject({ routeKey: 'GET /api/v1/transactions', rawPath: '/api/v1/transactions', queryStringParameters: { q: 'Elm', pageSize: '5' } });
    expect(list.headers.authorization).toBe('Bearer mcp_at_x');
    const create = toolCallEvent(byId('createTask'), { transactionId: 'a/b', body: { title: 'T' } }, 'k');
    expect(create.rawPath).toBe('/api/v1/transactions/a%2Fb/tasks');
    expect(create.pathParameters).toEqual({ transactionId: 'a/b' });
    expect(JSON.parse(create.body!)).toEqual({ title: 'T' });
    expect(create.queryStringParameters).toBeUndefined();
  });

  it('requires path parameters and a required body, and marks reads read-only', () => {
    const t = toolOf(byId('createTask'));
    expect(t.inputSchema.required).toEqual(['transactionId', 'body']);
    expect(t.annotations.readOnlyHint).toBe(false);
    expect(toolOf(byId('getTransaction')).annotations.readOnlyHint).toBe(true);
    expect(toolOf(byId('createContact')).inputSchema.required ?? []).not.toContain('body');
  });
});

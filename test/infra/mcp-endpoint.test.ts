/**
 * The deployed MCP endpoint (lib/mcp-endpoint.ts): its routes on the HTTP API, its function (the API's endpoint as
 * `MCP_API_URL`, no table or other grant), its errors alarm and rollback wiring, and its generated entry (the tool
 * list as data, importing no operation module).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { isImplemented } from '#api/operation';
import { loadOperations } from '#lib/registry';
import { mcpEntrySource, MCP_ERRORS_THRESHOLD } from '#lib/mcp-endpoint';
import { MCP_PATH } from '#lib/mcp/endpoint';
import { synthesizeDefault, type Synthesized } from './synth.ts';

let s: Synthesized;
beforeAll(async () => {
  s = await synthesizeDefault();
}, 300_000);

describe('MCP endpoint', () => {
  it('routes POST, GET and DELETE /mcp (the local path) to the MCP function', () => {
    const nested = s.nested(s.stack.httpApi.routesStack);
    const routes = nested.ofType('AWS::ApiGatewayV2::Route').filter(([, r]) => String(r.Properties.RouteKey).endsWith(` ${MCP_PATH}`));
    expect(routes.map(([, r]) => r.Properties.RouteKey).sort()).toEqual(['DELETE /mcp', 'GET /mcp', 'POST /mcp']);
    const targets = new Set(routes.map(([, r]) => JSON.stringify(r.Properties.Target)));
    expect(targets.size).toBe(1);
    const integrationId = (routes[0][1].Properties.Target['Fn::Join'][1] as unknown[]).find((p) => typeof p === 'object') as { Ref: string };
    const integration = nested.resources[integrationId.Ref];
    expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
    // The integration names the function's live alias, passed into the nested stack as a parameter.
    const uriParam = (integration.Properties.IntegrationUri as { Ref: string }).Ref;
    const parent = s.resources[s.stack.getLogicalId(s.stack.httpApi.routesStack.nestedStackResource!)];
    expect(parent.Properties.Parameters[uriParam]).toEqual(s.liveOf(s.stack.mcp.fn));
  });

  it('runs on Node.js 22 with the API endpoint as MCP_API_URL and no table access', () => {
    const fn = s.resources[s.logicalIdOf(s.stack.mcp.fn.fn)].Properties;
    expect(fn.Runtime).toBe('nodejs22.x');
    expect(fn.Environment.Variables.MCP_API_URL).toEqual({ 'Fn::GetAtt': [s.logicalIdOf(s.stack.httpApi.api), 'ApiEndpoint'] });
    expect(fn.Environment.Variables.TABLE_NAME).toBeUndefined();
    const role = fn.Role['Fn::GetAtt'][0] as string;
    const policies = s.ofType('AWS::IAM::Policy').filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === role));
    const actions = policies.flatMap(([, p]) => p.Properties.PolicyDocument.Statement.flatMap((st: { Action: string | string[] }) => [st.Action].flat()));
    expect(actions.filter((a) => !a.startsWith('xray:'))).toEqual([]);
  });

  it('alarms on 3 Lambda errors in 5 minutes, which also roll a deployment back', () => {
    expect(MCP_ERRORS_THRESHOLD).toBe(3);
    s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'Errors',
      Namespace: 'AWS/Lambda',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: s.logicalIdOf(s.stack.mcp.fn.fn) } }],
      Threshold: 3,
      Period: 300,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    const group = s.ofType('AWS::CodeDeploy::DeploymentGroup').find(([id]) => id.startsWith('McpFn'));
    expect(group?.[1].Properties.AlarmConfiguration.Alarms).toEqual([{ Name: { Ref: s.logicalIdOf(s.stack.mcp.errorsAlarm) } }]);
  });

  it("bundles the tool list as data: one entry per implemented operation, and no operation module", async () => {
    const ops = await loadOperations();
    const source = mcpEntrySource(ops, 'v1');
    const imports = [...source.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(imports).toEqual(['#lib/mcp/lambda']);
    const tools = JSON.parse(/^const tools = (.*);$/m.exec(source)![1]) as { tool: { name: string }; route: { operationId: string; group: string; pathNames: string[] } }[];
    expect(tools.map((t) => t.tool.name).sort()).toEqual(ops.filter(isImplemented).map((op) => op.operationId).sort());
    expect(tools.find((t) => t.tool.name === 'redeliverWebhookDelivery')?.route).toMatchObject({ group: 'webhooks', pathNames: ['id', 'deliveryId'], hasBody: false });
  });
});

/**
 * The HTTP API's edge (issue 15 "Edge"): per-route throttling of the routes that cost money or reach people,
 * CORS for browser clients, access log lines carrying the Lambda request id a 500 quotes, and the optional
 * custom domain from context (lib/http-api.ts, lib/edge-settings.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOperations } from '#lib/registry';
import { ROUTE_THROTTLES, routeThrottleOf, STAGE_THROTTLE } from '#lib/edge-settings';
import { synthesize, synthesizeDefault, type Synthesized } from './synth.ts';

let s: Synthesized;
let custom: Synthesized | undefined;
beforeAll(async () => {
  s = await synthesizeDefault();
}, 120_000);
afterAll(() => {
  s?.cleanup();
  custom?.cleanup();
});

const stageOf = (x: Synthesized) => x.ofType('AWS::ApiGatewayV2::Stage')[0];

describe('per-route throttling', () => {
  it('gives every mail/SMS send, document write, report build and other write its bucket, and leaves other reads on the stage bucket', async () => {
    const [, stage] = stageOf(s);
    const settings = stage.Properties.RouteSettings as Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>;
    const ops = await loadOperations();
    for (const op of ops) {
      const key = `${op.method} ${op.path}`;
      const expected = routeThrottleOf(op);
      if (!expected) expect(settings[key], key).toBeUndefined();
      else expect(settings[key], key).toEqual({ ThrottlingRateLimit: expected.rateLimit, ThrottlingBurstLimit: expected.burstLimit });
    }
    const sendEmail = ops.find((o) => o.operationId === 'sendTransactionEmail')!;
    expect(settings[`${sendEmail.method} ${sendEmail.path}`].ThrottlingRateLimit).toBe(ROUTE_THROTTLES.outbound.rateLimit);
    const upload = ops.find((o) => o.operationId === 'createDocumentUploadUrl')!;
    expect(settings[`${upload.method} ${upload.path}`].ThrottlingRateLimit).toBe(ROUTE_THROTTLES.documents.rateLimit);
    const report = ops.find((o) => o.uses?.includes('reports:build') && o.method === 'GET')!;
    expect(settings[`${report.method} ${report.path}`]).toEqual({ ThrottlingRateLimit: ROUTE_THROTTLES.reports.rateLimit, ThrottlingBurstLimit: ROUTE_THROTTLES.reports.burstLimit });
    expect(settings['GET /api/v1/transactions/{transactionId}']).toBeUndefined();
    expect(stage.Properties.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: STAGE_THROTTLE.rateLimit, ThrottlingBurstLimit: STAGE_THROTTLE.burstLimit });
  });

  it('deploys every throttled route before the stage that names it', () => {
    const [, stage] = stageOf(s) as [string, { DependsOn?: string[]; Properties: Record<string, any> }];
    // The routes are in their nested stack (lib/http-api.ts): the stage waits for that whole stack.
    const routeKeys = new Set(s.nested(s.stack.httpApi.routesStack).ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey as string));
    const dependsOn = new Set((s.template.toJSON().Resources[stageOf(s)[0]].DependsOn ?? []) as string[]);
    expect(dependsOn.has(s.stack.getLogicalId(s.stack.httpApi.routesStack.nestedStackResource!))).toBe(true);
    for (const key of Object.keys(stage.Properties.RouteSettings)) expect(routeKeys.has(key), key).toBe(true);
  });
});

describe('CORS and access logs', () => {
  it('answers browser preflights for any origin by default, with the headers clients send and read', () => {
    const [[, api]] = s.ofType('AWS::ApiGatewayV2::Api');
    expect(api.Properties.CorsConfiguration).toEqual({
      AllowOrigins: ['*'],
      AllowHeaders: ['authorization', 'content-type', 'idempotency-key', 'if-match'],
      AllowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      ExposeHeaders: ['retry-after', 'idempotency-replayed'],
      MaxAge: 600,
    });
    expect(api.Properties.CorsConfiguration).not.toHaveProperty('AllowCredentials');
  });

  it('logs the Lambda request id (the Reference in a 500 message) with API Gateway\'s own', () => {
    const format = JSON.parse(stageOf(s)[1].Properties.AccessLogSettings.Format);
    expect(format).toMatchObject({ requestId: '$context.requestId', integrationRequestId: '$context.integration.requestId' });
  });
});

describe('context', () => {
  it('a custom domain maps the $default stage, becomes ApiUrl, and outputs the DNS target; CORS origins narrow', async () => {
    custom = await synthesize({
      apiDomainName: 'api.hillcountry.example',
      apiCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0f3e9c1a-7b2d-4e5f-8a9b-1c2d3e4f5a6b',
      corsAllowOrigins: 'https://tc.hillcountry.example, https://admin.hillcountry.example',
    });
    const [[domainId, domain]] = custom.ofType('AWS::ApiGatewayV2::DomainName');
    expect(domain.Properties).toMatchObject({
      DomainName: 'api.hillcountry.example',
      DomainNameConfigurations: [{ CertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0f3e9c1a-7b2d-4e5f-8a9b-1c2d3e4f5a6b', EndpointType: 'REGIONAL' }],
    });
    const [[, mapping]] = custom.ofType('AWS::ApiGatewayV2::ApiMapping');
    expect(mapping.Properties.DomainName).toEqual({ Ref: domainId });
    expect(mapping.Properties.Stage).toBe('$default');
    const outputs = custom.template.toJSON().Outputs;
    expect(outputs.ApiUrl.Value).toBe('https://api.hillcountry.example/');
    expect(outputs.ApiDomainTarget.Value).toEqual({ 'Fn::GetAtt': [domainId, 'RegionalDomainName'] });
    expect(custom.ofType('AWS::ApiGatewayV2::Api')[0][1].Properties.CorsConfiguration.AllowOrigins).toEqual(['https://tc.hillcountry.example', 'https://admin.hillcountry.example']);
    expect(custom.synthError).toBeUndefined();
  }, 120_000);

  it('refuses half a custom domain, a malformed certificate ARN and an origin with a path, at synth', async () => {
    await expect(synthesize({ apiDomainName: 'api.hillcountry.example' })).rejects.toThrow(/apiDomainName and apiCertificateArn go together/);
    await expect(synthesize({ apiDomainName: 'api.hillcountry.example', apiCertificateArn: 'not-an-arn' })).rejects.toThrow(/not an ACM certificate ARN/);
    await expect(synthesize({ corsAllowOrigins: 'https://tc.hillcountry.example/app' })).rejects.toThrow(/is not an origin/);
  });
});

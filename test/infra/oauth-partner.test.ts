/**
 * The OAuth authorization server's and the partner tier's infrastructure: the KMS ES256 signing key and who may use it
 * (the OAuth function only; the API functions verify with the key item it publishes in the table),
 * the OAuth routes, and the partner stage (nested stack): a REST API whose API keys come from a Lambda authorizer,
 * with a usage plan, an authorizer-guarded method per partner operation and Gateway Responses in the spec's envelope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Template } from 'aws-cdk-lib/assertions';
import { synthesizeDefault, type Synthesized } from './synth.ts';

let s: Synthesized;
let nested: Template;
beforeAll(async () => {
  s = await synthesizeDefault();
  nested = Template.fromStack(s.stack.partnerApi!);
}, 120_000);
afterAll(() => s?.cleanup());

interface Statement {
  Action: string | string[];
  Resource: unknown;
}
/** The statements of every IAM policy attached to a role. */
const statementsOfRole = (roleLogicalId: string): Statement[] =>
  s
    .ofType('AWS::IAM::Policy')
    .map(([, r]) => r.Properties)
    .filter((p) => p.Roles.some((r: { Ref: string }) => r.Ref === roleLogicalId))
    .flatMap((p) => p.PolicyDocument.Statement as Statement[]);

describe('OAuth signing key', () => {
  it('is an ECC P-256 SIGN_VERIFY KMS key', () => {
    s.template.hasResourceProperties('AWS::KMS::Key', { KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' });
  });

  it('only the OAuth function may use it (Sign, GetPublicKey) and has its id; API functions have no KMS access to it, only the issuer', () => {
    const keyId = s.logicalIdOf(s.stack.oauth.signingKey);
    const kmsActionsOf = (roleLogicalId: string) =>
      statementsOfRole(roleLogicalId)
        .filter((st) => JSON.stringify(st.Resource).includes(keyId))
        .flatMap((st) => [st.Action].flat());
    const roleOf = (fn: { role?: unknown }) => s.logicalIdOf(fn.role as never);
    expect(kmsActionsOf(roleOf(s.stack.oauth.fn.fn)).sort()).toEqual(['kms:GetPublicKey', 'kms:Sign']);
    expect(s.resources[s.logicalIdOf(s.stack.oauth.fn.fn)].Properties.Environment.Variables.OAUTH_SIGNING_KEY_ID).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
    expect(s.stack.functions.size).toBeGreaterThan(10);
    for (const [group, fn] of s.stack.functions) {
      expect(kmsActionsOf(roleOf(fn.fn)), group).toEqual([]);
      const vars = s.resources[s.logicalIdOf(fn.fn)].Properties.Environment.Variables;
      expect(vars.OAUTH_SIGNING_KEY_ID, group).toBeUndefined();
      expect(vars.OAUTH_ISSUER, group).toBeDefined();
    }
  });

  it('the OAuth function may publish the key item (PutItem) and API functions read it (GetItem) on the table', () => {
    const tableId = s.logicalIdOf(s.stack.table.table);
    const tableActionsOf = (fn: { role?: unknown }) =>
      statementsOfRole(s.logicalIdOf(fn.role as never))
        .filter((st) => JSON.stringify(st.Resource).includes(tableId))
        .flatMap((st) => [st.Action].flat());
    expect(tableActionsOf(s.stack.oauth.fn.fn)).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:GetItem']));
    for (const [group, fn] of s.stack.functions) expect(tableActionsOf(fn.fn), group).toContain('dynamodb:GetItem');
  });
});

describe('partner stage', () => {
  it('is a REST API whose API keys come from the authorizer', () => {
    nested.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
    nested.hasResourceProperties('AWS::ApiGateway::Authorizer', { Type: 'REQUEST', IdentitySource: 'method.request.header.Authorization', AuthorizerResultTtlInSeconds: 0 });
  });

  it('has one authorizer-guarded, API-key-required method per partner operation', () => {
    const methods = Object.values(nested.findResources('AWS::ApiGateway::Method')).map((m) => m.Properties);
    const partnerOps = [...s.stack.functions.keys()].includes('partner') ? 7 : 0;
    expect(methods).toHaveLength(partnerOps);
    for (const m of methods) expect(m).toMatchObject({ AuthorizationType: 'CUSTOM', ApiKeyRequired: true });
    expect(methods.map((m) => m.OperationName).sort()).toEqual(['createPartnerOrg', 'getPartnerOrg', 'getPartnerOrgEntitlements', 'getPartnerOrgSummary', 'invitePartnerOrgUser', 'listPartnerOrgs', 'removePartnerOrgUser']);
  });

  it('has a usage plan on the partner stage with a throttle and a daily quota', () => {
    nested.hasResourceProperties('AWS::ApiGateway::UsagePlan', { Throttle: { RateLimit: 20, BurstLimit: 40 }, Quota: { Limit: 50000, Period: 'DAY' } });
    nested.hasResourceProperties('AWS::ApiGateway::Stage', { StageName: 'partner', TracingEnabled: true });
  });

  it('answers API Gateway errors in the spec envelope (401, 404, 429 with Retry-After)', () => {
    const responses = Object.values(nested.findResources('AWS::ApiGateway::GatewayResponse')).map((r) => r.Properties);
    const byType = new Map(responses.map((r) => [r.ResponseType, r]));
    expect(JSON.parse(byType.get('UNAUTHORIZED').ResponseTemplates['application/json'])).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    expect(byType.get('UNAUTHORIZED').StatusCode).toBe('401');
    expect(byType.get('MISSING_AUTHENTICATION_TOKEN').StatusCode).toBe('404');
    expect(byType.get('THROTTLED')).toMatchObject({ StatusCode: '429', ResponseParameters: { 'gatewayresponse.header.Retry-After': "'60'" } });
    expect(JSON.parse(byType.get('QUOTA_EXCEEDED').ResponseTemplates['application/json']).error.code).toBe('rate_limited');
  });

  it('keeps the main stack under 450 of the 500 resources', () => {
    expect(Object.keys(s.resources).length).toBeLessThan(450);
  });
});

/**
 * CDK assertions on the synthesized `TransactionCoordinationStack`: routes derived from the operation modules, one
 * arm64 Node.js 22 function per group, least-privilege table grants, the table's shape (same as DynamoDB
 * Local's), log retention, and cdk-nag (AWS Solutions) passing with only the justified acknowledgments.
 * The app is synthesized once per worker by `synthesizeDefault()` (./synth.ts): bundling skipped, cdk.json's context, the same
 * `configureApp` as `bin/app.ts`, cdk-nag findings collected in `validation-report.json` rather than thrown.
 * The webhook, extraction and messaging workers (not API groups) are asserted in their own files; here they only count.
 */
import { REFERENCE_ROUTES } from '#lib/reference-site';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validations } from 'aws-cdk-lib';
import { Annotations, Match, type Template } from 'aws-cdk-lib/assertions';
import { routeKeyOf } from '#api/operation';
import { lambdaGroups as loadGroups, loadOperations } from '#lib/registry';
import type { LambdaGroup } from '#api/types';
import { createTableInput, TABLE_KEYS } from '#db/table-definition';
import type { TransactionCoordinationStack } from '#lib/stack';
import type { ServiceFunction } from '#lib/service-function';
import { MESSAGING_WORKERS, WEBHOOK_WORKERS } from '#lib/table-access';
import { PUBLIC_ROUTES } from '#lib/public-routes';
import { EXTRACTION_STEPS } from '#lib/extraction-definition';
import { synthesizeDefault, type Resource, type Synthesized } from './synth.ts';

/** The reference site's one function (lib/reference-site.ts). */
const REFERENCE_FUNCTIONS = 1;
/** The MCP endpoint's function, its routes and its errors alarm (lib/mcp-endpoint.ts, test/infra/mcp-endpoint.test.ts). */
const MCP_FUNCTIONS = 1;
const MCP_ROUTES = ['POST /mcp', 'GET /mcp', 'DELETE /mcp'];
const MCP_ALARMS = 1;

// BatchWriteItem: search-token upkeep after a deal or contact commits (lib/table-access.ts).
const BASE_ACTIONS = [
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:Query',
  'dynamodb:TransactWriteItems',
  'dynamodb:UpdateItem',
];
/**
 * Groups that also get DeleteItem (an operation deletes, or honours Idempotency-Key) and BatchGetItem (lib/table-access.ts),
 * spelled out so a change is visible.
 */
const DELETE_GROUPS = new Set(['tasks', 'messaging', 'disclosures', 'webhooks', 'documents', 'contacts', 'templates', 'partner']);
const BATCH_GET_GROUPS = new Set(['tasks']);

const operations = await loadOperations();
const lambdaGroups = await loadGroups();
/** Alarms the webhook pipeline adds: both DLQs' depth, DLQ age, fan-out iterator age, delivery queue age, worker errors, notification failures. */
const WEBHOOK_ALARMS = 7;
/** Errors alarms of OAuth, reference site, extraction steps, workspace workers (function-alarms.test.ts; the partner tier's are in its nested stack). */
const FUNCTION_ALARMS = 4;
/** The report workers' errors alarm (report-builder.test.ts). */
const REPORT_ALARMS = 1;
/** Alarms the extraction pipeline adds: system failures, executions timed out, aborted, throttled, upload handler errors. */
const EXTRACTION_ALARMS = 5;
/** Functions the extraction pipeline adds (asserted in extraction-pipeline.test.ts): six steps + the upload trigger. */
const EXTRACTION_FUNCTIONS = EXTRACTION_STEPS.length + 1;
/** CDK's BucketNotificationsHandler (installs the S3 → Lambda notification): a function without a log group. */
const CDK_HELPER_FUNCTIONS = 1;
/** Alarms the messaging pipeline adds (asserted in messaging-pipeline.test.ts). */
const MESSAGING_ALARMS = 9;
/** DynamoDB system errors and throttled requests (asserted in alarms.test.ts). */
const TABLE_ALARMS = 2;
/** API alarms (asserted in alarms.test.ts): 5xx, p99 latency, 4xx surge, 429 surge, then throttles of 10 functions per alarm. */
const apiAlarmCount = (apiFunctions: number) => 4 + Math.ceil(apiFunctions / 10);
/** Functions the workspace lifecycle adds (asserted in workspace-lifecycle.test.ts): purge and export. */
const LIFECYCLE_FUNCTIONS = 2;
/** The OAuth authorization server's function (lib/oauth-server.ts). */
const OAUTH_FUNCTIONS = 1;
/** The report workers, report-pdf and report-zip (lib/report-builder.ts). */
const REPORT_FUNCTIONS = 2;
/** Workers that are not API groups: webhook, extraction, messaging, workspace-lifecycle, OAuth and report functions. */
const WORKER_FUNCTIONS = WEBHOOK_WORKERS.length + EXTRACTION_FUNCTIONS + MESSAGING_WORKERS.length + LIFECYCLE_FUNCTIONS + OAUTH_FUNCTIONS + REPORT_FUNCTIONS;

let synth: Synthesized;
let outdir: string;
let stack: TransactionCoordinationStack;
let template: Template;
let resources: Record<string, Resource>;
let synthError: unknown;

const ofType = (type: string) => synth.ofType(type);
const logicalIdOf = (construct: { node: { defaultChild?: unknown } }) => synth.logicalIdOf(construct);
const fnLogicalId = (group: LambdaGroup) => logicalIdOf(stack.functions.get(group)!.fn);
/** The routes' nested stack (lib/http-api.ts), and the values its parameters get from this stack. */
const routes = () => synth.nested(stack.httpApi.routesStack);
const routesParameters = (): Record<string, unknown> => {
  const [[, nested]] = ofType('AWS::CloudFormation::Stack').filter(([id]) => id.startsWith('HttpRoutes'));
  return nested.Properties.Parameters;
};
/** A nested-stack value as the parent template writes it (`{ Ref: <parameter> }` → the parameter's value). */
const fromParent = (value: { Ref?: string }): unknown => (value.Ref && routesParameters()[value.Ref] !== undefined ? routesParameters()[value.Ref] : value);

beforeAll(async () => {
  synth = await synthesizeDefault();
  ({ outdir, stack, template, resources, synthError } = synth);
}, 300_000); // one synthesis: minutes on a loaded 2-core machine

afterAll(() => {
  synth?.cleanup();
});

describe('cdk-nag (AwsSolutions)', () => {
  it('synthesizes without unacknowledged findings', () => {
    expect(synthError === undefined ? undefined : String((synthError as Error).message)).toBeUndefined();
    const reportFile = path.join(outdir, 'validation-report.json');
    expect(existsSync(reportFile)).toBe(true);
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    const violations = report.pluginReports.flatMap((p: { violations: { ruleName: string }[] }) => p.violations);
    expect(violations.map((v: { ruleName: string; violatingResources?: unknown }) => `${v.ruleName} ${JSON.stringify(v.violatingResources ?? '').slice(0, 300)}`)).toEqual([]);
    expect(Annotations.fromStack(stack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
  });

  it('acknowledges only the justified rules, each with a reason', () => {
    const acks = new Map<string, string>();
    for (const c of stack.node.findAll()) {
      for (const entry of c.node.metadata) {
        if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
        for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) acks.set(id, reason);
      }
    }
    // The schedules wildcard is always acknowledged: the workspace purge deletes schedules of the group
    // (lib/messaging/scheduler.ts grantDelete) and the outbox relay creates and deletes them (grantManage). The partition and region are tokens, or literals when the environment names a region (lib/nag-resource.ts).
    const arn = (service: string, rest: string) => new RegExp(`AwsSolutions-IAM5\\[Resource::arn:(<AWS::Partition>|aws[a-z-]*):${service}:(<AWS::Region>|[a-z0-9-]+):<AWS::AccountId>:${rest}\\]$`);
    const scheduler = arn('scheduler', 'schedule/[A-Za-z0-9-]+/\\*');
    const allowed = [
      /AwsSolutions-APIG4$/,
      // The partner stage (lib/partner-api.ts): validation in the function, no WAF, a Lambda authorizer, and no stage
      // logging without API Gateway's account role (context apiGatewayCloudWatchRole; with it, its managed policy instead).
      /AwsSolutions-APIG2$/,
      /AwsSolutions-APIG3$/,
      /AwsSolutions-COG4$/,
      /AwsSolutions-APIG1$/,
      /AwsSolutions-APIG6$/,
      // Safe deployments (lib/safe-deployments.ts): CodeDeploy's Lambda service role, and SNS subscriptions to an alias.
      /AwsSolutions-IAM4\[Policy::arn:<AWS::Partition>:iam::aws:policy\/service-role\/AWSCodeDeployRoleForLambdaLimited\]$/,
      /CloudFormation-Validate::W3694$/,
      /AwsSolutions-L1$/,
      /AwsSolutions-IAM4\[Policy::arn:<AWS::Partition>:iam::aws:policy\/service-role\/AWSLambdaBasicExecutionRole\]$/,
      /AwsSolutions-IAM5\[Resource::\*\]$/,
      /AwsSolutions-IAM5\[Resource::<DataTable[0-9A-F]{8}\.Arn>\/index\/\*\]$/,
      /AwsSolutions-IAM5\[Resource::<ExtractionDocuments[0-9A-F]{8}\.Arn>\/org\/\*\]$/,
      /AwsSolutions-IAM5\[Resource::<ExtractionDocuments[0-9A-F]{8}\.Arn>\/ocr\/\*\]$/,
      /AwsSolutions-IAM5\[Resource::<ExtractionDocuments[0-9A-F]{8}\.Arn>\/exports\/\*\]$/,
      // Stored reports (lib/report-builder.ts): the report workers write, report-zip reads, the reports API presigns.
      /AwsSolutions-IAM5\[Resource::<ExtractionDocuments[0-9A-F]{8}\.Arn>\/reports\/\*\]$/,
      arn('secretsmanager', 'secret:tcs/mail/\\*'),
      /AwsSolutions-S1$/,
      /AwsSolutions-SQS3$/,
      scheduler,
      // CDK's own SQS send grant on a queue encrypted with the data key (lib/data-key.ts acknowledgeQueueSendKeyGrant).
      /AwsSolutions-IAM5\[Action::kms:ReEncrypt\*\]$/,
      /AwsSolutions-IAM5\[Action::kms:GenerateDataKey\*\]$/,
    ];
    expect(acks.size).toBe(allowed.length);
    for (const [id, reason] of acks) {
      expect(allowed.some((re) => re.test(id)), id).toBe(true);
      expect(reason.length, id).toBeGreaterThan(60);
    }
  });
});

describe('HTTP API', () => {
  it('has exactly one route per operation plus $default, the public routes and the reference site\'s', () => {
    const keys = [...ofType('AWS::ApiGatewayV2::Route'), ...routes().ofType('AWS::ApiGatewayV2::Route')].map(([, r]) => r.Properties.RouteKey as string);
    const expected = [...operations.map(routeKeyOf), '$default', ...PUBLIC_ROUTES.map(routeKeyOf), ...REFERENCE_ROUTES.map((p) => `GET ${p}`), ...MCP_ROUTES];
    expect(keys.length).toBe(expected.length);
    expect(new Set(keys)).toEqual(new Set(expected));
  });

  it("integrates each route with its group's live alias, $default with meta, a public route with its worker", () => {
    // Routes and integrations live in the routes' nested stack, which gets each alias ARN as a parameter.
    const fnOfIntegration = new Map(routes().ofType('AWS::ApiGatewayV2::Integration').map(([id, r]) => [id, JSON.stringify(fromParent(r.Properties.IntegrationUri))]));
    const liveOf = (fn: ServiceFunction) => JSON.stringify(synth.liveOf(fn));
    const fnOfRoute = new Map<string, string>(operations.map((op) => [routeKeyOf(op), liveOf(stack.functions.get(op.group)!)]));
    fnOfRoute.set('$default', liveOf(stack.functions.get('meta')!));
    for (const pub of PUBLIC_ROUTES) fnOfRoute.set(routeKeyOf(pub), liveOf(pub.worker === 'oauth' ? stack.oauth.fn : stack.messaging.workers[pub.worker]));
    for (const key of MCP_ROUTES) fnOfRoute.set(key, liveOf(stack.mcp.fn));
    const operationRoutes = routes().ofType('AWS::ApiGatewayV2::Route');
    expect(operationRoutes.length).toBe(operations.length + 1 + PUBLIC_ROUTES.length + MCP_ROUTES.length);
    for (const [, route] of operationRoutes) {
      const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref as string;
      expect(fnOfIntegration.get(integrationId), route.Properties.RouteKey).toBe(fnOfRoute.get(route.Properties.RouteKey));
    }
  });

  it('lets API Gateway invoke each function\'s live alias from this API only', () => {
    const permissions = routes().ofType('AWS::Lambda::Permission').map(([, r]) => r.Properties);
    const apiId = JSON.stringify({ Ref: logicalIdOf(stack.httpApi.api) });
    for (const group of lambdaGroups) {
      const mine = permissions.filter((p) => JSON.stringify(fromParent(p.FunctionName)) === JSON.stringify(synth.liveOf(stack.functions.get(group)!)));
      expect(mine.length, group).toBeGreaterThan(0);
      for (const p of mine) {
        expect(p.Principal).toBe('apigateway.amazonaws.com');
        const sourceArn = JSON.stringify(p.SourceArn).replace(/\{"Ref":"([^"]+)"\}/g, (ref: string, id: string) => (routesParameters()[id] ? JSON.stringify(routesParameters()[id]) : ref));
        expect(sourceArn).toContain(apiId);
      }
    }
  });

  it('throttles the $default stage and writes JSON access logs with the request id', () => {
    const [[, stage], ...rest] = ofType('AWS::ApiGatewayV2::Stage');
    expect(rest).toHaveLength(0);
    expect(stage.Properties).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingBurstLimit: 200, ThrottlingRateLimit: 100 },
    });
    const format = JSON.parse(stage.Properties.AccessLogSettings.Format);
    expect(format).toMatchObject({ requestId: '$context.requestId', status: '$context.status', routeKey: '$context.routeKey' });
    expect(stage.Properties.AccessLogSettings.DestinationArn['Fn::GetAtt'][0]).toBe(logicalIdOf(stack.httpApi.accessLogs));
  });
});

describe('functions', () => {
  it('has one Node.js 22 arm64 function per Lambda group, bound to the table', () => {
    template.resourceCountIs('AWS::Lambda::Function', lambdaGroups.length + WORKER_FUNCTIONS + CDK_HELPER_FUNCTIONS + REFERENCE_FUNCTIONS + MCP_FUNCTIONS);
    for (const group of lambdaGroups) {
      const fn = resources[fnLogicalId(group)];
      expect(fn.Type).toBe('AWS::Lambda::Function');
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: 512,
        Timeout: 29,
        TracingConfig: { Mode: 'Active' },
        Environment: { Variables: { NODE_OPTIONS: '--enable-source-maps', TABLE_NAME: { Ref: logicalIdOf(stack.table.table) } } },
      });
      expect(fn.Properties.FunctionName, 'function names are generated').toBeUndefined();
    }
  });

  it("grants each function only its group's DynamoDB actions, on the table and its indexes", () => {
    const tableArn = { 'Fn::GetAtt': [logicalIdOf(stack.table.table), 'Arn'] };
    const policies = ofType('AWS::IAM::Policy').map(([, r]) => r.Properties);
    for (const group of lambdaGroups) {
      const role = resources[fnLogicalId(group)].Properties.Role['Fn::GetAtt'][0];
      const statements = policies
        .filter((p) => p.Roles.some((r: { Ref: string }) => r.Ref === role))
        .flatMap((p) => p.PolicyDocument.Statement as { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown }[]);
      const dynamo = statements.filter((s) => s.Effect === 'Allow' && [s.Action].flat().some((a) => a.startsWith('dynamodb:')));
      // The one Deny: no group writes the OAuth signing key's partition (lib/table-access.ts signingKeyWriteDeny).
      expect(statements.filter((s) => s.Effect === 'Deny'), group).toEqual([
        {
          Effect: 'Deny',
          Action: ['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
          Resource: tableArn,
          Condition: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': ['OAUTHKEY#*'] } },
        },
      ]);
      expect(dynamo, group).toHaveLength(1);
      const actions = [dynamo[0].Action].flat().sort();
      const expected = [...BASE_ACTIONS, ...(DELETE_GROUPS.has(group) ? ['dynamodb:DeleteItem'] : []), ...(BATCH_GET_GROUPS.has(group) ? ['dynamodb:BatchGetItem'] : [])].sort();
      expect(actions, group).toEqual(expected);
      expect(actions.some((a) => a === 'dynamodb:*' || /Scan|Stream|Table/.test(a)), group).toBe(false);
      expect(dynamo[0].Resource, group).toEqual([tableArn, { 'Fn::Join': ['', [tableArn, '/index/*']] }]);
    }
  });

  it('gives every function a log group with retention', () => {
    const logGroups = new Map(ofType('AWS::Logs::LogGroup'));
    // + API access logs + the extraction state machine's execution logs + the reference site's function
    expect(logGroups.size).toBe(lambdaGroups.length + WORKER_FUNCTIONS + 2 + REFERENCE_FUNCTIONS + MCP_FUNCTIONS);
    for (const [, lg] of logGroups) expect(lg.Properties.RetentionInDays).toBe(30);
    for (const group of lambdaGroups) {
      const ref = resources[fnLogicalId(group)].Properties.LoggingConfig.LogGroup.Ref;
      expect(logGroups.has(ref), group).toBe(true);
    }
  });
});

describe('observability', () => {
  // API groups are bundled without the X-Ray SDK (lib/service-function.ts `bundlesXraySdk`, issue 24's init budget).
  it('names each API function\'s Powertools service after its group; API groups trace without the X-Ray SDK, actively traced', () => {
    for (const group of lambdaGroups) {
      const props = resources[fnLogicalId(group)].Properties;
      expect(props.Environment.Variables.POWERTOOLS_SERVICE_NAME, group).toBe(`api-${group}`);
      expect(props.Environment.Variables.POWERTOOLS_TRACE_ENABLED, group).toBe('false');
      expect(props.TracingConfig, group).toEqual({ Mode: 'Active' });
    }
  });

  it('names the webhook workers, the extraction functions, the messaging and workspace-lifecycle workers, each with its own service name', () => {
    const names = ofType('AWS::Lambda::Function')
      .map(([, r]) => r.Properties.Environment?.Variables?.POWERTOOLS_SERVICE_NAME as string | undefined)
      .filter((n): n is string => n !== undefined);
    expect(names).toEqual(expect.arrayContaining(['webhook-fanout', 'webhook-delivery', 'document-uploaded', ...EXTRACTION_STEPS.map((s) => `extraction-${s}`), ...MESSAGING_WORKERS, 'workspace-purge', 'workspace-export', 'report-pdf', 'report-zip']));
    expect(new Set(names).size, 'service names are unique').toBe(names.length);
  });
});

describe('table', () => {
  it('matches the local table definition: PK/SK, GSI1/GSI2 (ALL), GSI3/GSI4 (keys only), streams with both images', () => {
    const local = createTableInput('ignored');
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    const table = resources[logicalIdOf(stack.table.table)];
    const byName = <T extends { AttributeName?: string; IndexName?: string }>(xs: T[]) =>
      [...xs].sort((a, b) => String(a.AttributeName ?? a.IndexName).localeCompare(String(b.AttributeName ?? b.IndexName)));
    expect(table.Properties.KeySchema).toEqual([
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ]);
    expect(byName(table.Properties.AttributeDefinitions)).toEqual(byName(local.AttributeDefinitions));
    expect(byName(table.Properties.GlobalSecondaryIndexes)).toEqual(byName(local.GlobalSecondaryIndexes));
    expect(table.Properties.GlobalSecondaryIndexes.map((i: { IndexName: string }) => i.IndexName).sort()).toEqual(['GSI1', 'GSI2', 'GSI3', 'GSI4']);
    // GSI4 holds the credentials whose counters change on every request: keys only, so that update writes no index entry.
    expect(table.Properties.GlobalSecondaryIndexes.find((i: { IndexName: string }) => i.IndexName === 'GSI4').Projection).toEqual({ ProjectionType: 'KEYS_ONLY' });
    expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
  });

  it('is on-demand, with PITR, TTL on `ttl`, deletion protection, and retained on stack delete', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: TABLE_KEYS.ttlAttribute, Enabled: true },
        DeletionProtectionEnabled: true,
      }),
    });
    expect(TABLE_KEYS.ttlAttribute).toBe('ttl');
  });

  it('is encrypted with the data key: a rotated customer-managed KMS key, retained with the data', () => {
    const keyId = logicalIdOf(stack.dataKey.key);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } },
    });
    expect(resources[keyId]).toMatchObject({ Type: 'AWS::KMS::Key', DeletionPolicy: 'Retain', Properties: { EnableKeyRotation: true, PendingWindowInDays: 30 } });
    expect(template.toJSON().Outputs.DataKeyArn.Value).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
  });

  it('lets every API function (all write: auth records the rate limit) encrypt and decrypt with the data key', () => {
    const keyArn = { 'Fn::GetAtt': [logicalIdOf(stack.dataKey.key), 'Arn'] };
    const kmsActionsOfRole = (fnId: string) => {
      const role = resources[fnId].Properties.Role['Fn::GetAtt'][0];
      return ofType('AWS::IAM::Policy')
        .filter(([, p]) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === role))
        .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
        .filter((st) => JSON.stringify(st.Resource) === JSON.stringify(keyArn))
        .flatMap((st) => [st.Action].flat());
    };
    for (const group of lambdaGroups) expect(kmsActionsOfRole(fnLogicalId(group)), group).toEqual(expect.arrayContaining(['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey']));
  });
});

describe('operations', () => {
  it('alarms on API 5xx and on each function’s errors, and has one dashboard', () => {
    const alarms = ofType('AWS::CloudWatch::Alarm').map(([, r]) => r.Properties);
    const apiFunctions = lambdaGroups.length + new Set(PUBLIC_ROUTES.map((r) => r.worker)).size;
    expect(alarms).toHaveLength(lambdaGroups.length + apiAlarmCount(apiFunctions) + TABLE_ALARMS + WEBHOOK_ALARMS + EXTRACTION_ALARMS + MESSAGING_ALARMS + FUNCTION_ALARMS + MCP_ALARMS + REPORT_ALARMS);
    const api5xx = alarms.filter((a) => a.Metrics?.some((m: { MetricStat?: { Metric: { MetricName: string } } }) => m.MetricStat?.Metric.MetricName === 'tcs-dev-Api5xxExcluding501'));
    expect(api5xx).toHaveLength(1);
    for (const group of lambdaGroups) {
      const mine = alarms.filter(
        (a) => a.MetricName === 'Errors' && a.Dimensions?.some((d: { Value: { Ref: string } }) => d.Value.Ref === fnLogicalId(group)),
      );
      expect(mine, group).toHaveLength(1);
    }
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
  });

  it('stays well under CloudFormation\'s 500 resources per stack (the partner tier and the HTTP routes are nested stacks)', () => {
    // 450 leaves room for a few more groups and routes; past it, move a pipeline into a nested stack as
    // lib/partner-api.ts and lib/http-api.ts (routes) do, before a deploy fails at the limit.
    expect(Object.keys(resources).length).toBeLessThanOrEqual(450);
    expect(ofType('AWS::CloudFormation::Stack')).toHaveLength(2);
    expect(Object.keys(routes().resources).length).toBeLessThanOrEqual(450);
  });

  it('outputs the API URL and the table name', () => {
    template.hasOutput('ApiUrl', {});
    template.hasOutput('TableName', { Value: { Ref: logicalIdOf(stack.table.table) } });
  });
});

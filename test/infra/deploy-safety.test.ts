/**
 * What `cdk deploy` does to a brokerage's account beyond the service itself (issue 22): safe deployments (versions
 * behind `live`, CodeDeploy with alarm rollback, every invoker on the alias; opt-out by context), the resource budget
 * of the main stack, the partner stage's API Gateway account role (opt-in, retained), the receipt rule set only with a
 * mail domain, the stack outputs the runbook reads, and record retention (archived document versions, the optional
 * AWS Backup plan, CORS from `corsAllowOrigins`).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_ALIAS, SAFE_DEPLOYMENT_STYLES } from '#lib/safe-deployments';
import { DAILY_BACKUP_DAYS, yearsInDays } from '#lib/retention';
import type { ServiceFunction } from '#lib/service-function';
import type { TransactionCoordinationStack } from '#lib/stack';
import { synthesize, synthesizeDefault, type Synthesized } from './synth.ts';

let s: Synthesized;
/** safeDeployments=false, the account's existing API Gateway role, 7 years' retention, one CORS origin. */
let plain: Synthesized;
/** The stack creates the API Gateway account role; a table backup plan kept 10 years. */
let opted: Synthesized;
beforeAll(async () => {
  s = await synthesizeDefault();
  plain = await synthesize({ safeDeployments: 'false', apiGatewayCloudWatchRole: 'existing', recordRetentionYears: '7', corsAllowOrigins: 'https://tc.hillcountry.example' });
  opted = await synthesize({ apiGatewayCloudWatchRole: 'true', tableBackupPlan: 'true', tableBackupRetentionYears: '10' });
}, 600_000);
afterAll(() => {
  plain?.cleanup();
  opted?.cleanup();
});

/** Every ServiceFunction of the stack (main stack; the partner authorizer is in its nested stack). */
function serviceFunctions(stack: TransactionCoordinationStack): { name: string; fn: ServiceFunction; api: boolean }[] {
  const { webhooks, extraction, messaging, lifecycle, oauth, reports } = stack;
  return [
    ...[...stack.functions].map(([group, fn]) => ({ name: `api ${group}`, fn, api: true })),
    { name: 'oauth', fn: oauth.fn, api: true },
    { name: 'webhook fan-out', fn: webhooks.fanout, api: false },
    { name: 'webhook delivery', fn: webhooks.delivery, api: false },
    ...Object.entries(extraction.steps).map(([step, fn]) => ({ name: `extraction ${step}`, fn, api: false })),
    { name: 'document-uploaded', fn: extraction.uploadHandler, api: false },
    ...Object.entries(messaging.workers).map(([worker, fn]) => ({ name: worker, fn, api: worker === 'public-links' })),
    { name: 'workspace-purge', fn: lifecycle.purge, api: false },
    { name: 'workspace-export', fn: lifecycle.export, api: false },
    { name: 'report-pdf', fn: reports.pdf, api: false },
    { name: 'report-zip', fn: reports.zip, api: false },
  ];
}

const json = (v: unknown) => JSON.stringify(v);
/** Every resource of `type` in the main stack and its nested stacks. */
const everywhere = (x: Synthesized, type: string) => [
  ...x.ofType(type),
  ...x.nested(x.stack.httpApi.routesStack).ofType(type),
  ...(x.stack.partnerApi ? x.nested(x.stack.partnerApi).ofType(type) : []),
];

describe('safe deployments (default)', () => {
  it('publishes every function as a version behind the alias live, deployed by CodeDeploy: API canary, workers linear', () => {
    for (const { name, fn, api } of serviceFunctions(s.stack)) {
      const alias = s.resources[s.logicalIdOf(fn.alias!)];
      expect(alias.Type, name).toBe('AWS::Lambda::Alias');
      expect(alias.Properties.Name, name).toBe(LIVE_ALIAS);
      expect(alias.Properties.FunctionName, name).toEqual({ Ref: s.logicalIdOf(fn.fn) });
      const versionId = alias.Properties.FunctionVersion['Fn::GetAtt'][0] as string;
      expect(s.resources[versionId].Type, name).toBe('AWS::Lambda::Version');
      const update = (s.template.toJSON().Resources[s.logicalIdOf(fn.alias!)].UpdatePolicy ?? {}).CodeDeployLambdaAliasUpdate;
      expect(update?.DeploymentGroupName, name).toEqual({ Ref: s.logicalIdOf(fn.deploymentGroup!) });
      const group = s.resources[s.logicalIdOf(fn.deploymentGroup!)];
      expect(group.Type, name).toBe('AWS::CodeDeploy::DeploymentGroup');
      expect(group.Properties.DeploymentConfigName, name).toBe(SAFE_DEPLOYMENT_STYLES[api ? 'api' : 'worker'].deploymentConfigName);
    }
    expect(SAFE_DEPLOYMENT_STYLES.api.deploymentConfigName).toBe('CodeDeployDefault.LambdaCanary10Percent5Minutes');
    expect(SAFE_DEPLOYMENT_STYLES.worker.deploymentConfigName).toBe('CodeDeployDefault.LambdaLinear10PercentEvery1Minute');
    // One application and one service role shared by the main stack's deployment groups.
    s.template.resourceCountIs('AWS::CodeDeploy::Application', 1);
    expect(new Set(s.ofType('AWS::CodeDeploy::DeploymentGroup').map(([, g]) => json(g.Properties.ServiceRoleArn))).size).toBe(1);
  });

  it('rolls each deployment back on the alarm its traffic feeds', () => {
    const alarmOf = (owner: { node: { tryFindChild(id: string): unknown } }, id: string) => ({ Ref: s.logicalIdOf(owner.node.tryFindChild(id) as never) });
    const expected = new Map<ServiceFunction, unknown>([
      ...[...s.stack.functions.values()].map((fn) => [fn, alarmOf(s.stack.apiAlarms, 'Api5xxAlarm')] as const),
      [s.stack.oauth.fn, alarmOf(s.stack.apiAlarms, 'Api5xxAlarm')],
      [s.stack.webhooks.fanout, alarmOf(s.stack.webhooks, 'WorkerErrorsAlarm')],
      [s.stack.webhooks.delivery, alarmOf(s.stack.webhooks, 'WorkerErrorsAlarm')],
      ...Object.values(s.stack.extraction.steps).map((fn) => [fn, alarmOf(s.stack.extraction, 'SystemFailuresAlarm')] as const),
      [s.stack.extraction.uploadHandler, alarmOf(s.stack.extraction, 'UploadHandlerErrorsAlarm')],
      [s.stack.lifecycle.purge, alarmOf(s.stack.messaging, 'WorkerFailuresAlarm')],
    ]);
    for (const { name, fn } of serviceFunctions(s.stack)) {
      const group = s.resources[s.logicalIdOf(fn.deploymentGroup!)].Properties;
      expect(group.AutoRollbackConfiguration, name).toEqual({ Enabled: true, Events: ['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM'] });
      expect(group.AlarmConfiguration.Enabled, name).toBe(true);
      const alarms = (group.AlarmConfiguration.Alarms as { Name: unknown }[]).map((a) => json(a.Name));
      if (expected.has(fn)) expect(alarms, name).toContain(json(expected.get(fn)));
    }
    // public-links answers HTTP and is a messaging worker: both alarms.
    const publicLinks = s.resources[s.logicalIdOf(s.stack.messaging.workers['public-links'].deploymentGroup!)].Properties.AlarmConfiguration.Alarms.map((a: { Name: unknown }) => json(a.Name));
    expect(publicLinks.sort()).toEqual([json(alarmOf(s.stack.apiAlarms, 'Api5xxAlarm')), json(alarmOf(s.stack.messaging, 'WorkerErrorsAlarm'))].sort());
  });

  it('points every integration, event source, notification, subscription, task, schedule target and permission at live', () => {
    const aliasIds = new Set(serviceFunctions(s.stack).map(({ fn }) => s.logicalIdOf(fn.alias!)));
    const functionIds = new Set(serviceFunctions(s.stack).map(({ fn }) => s.logicalIdOf(fn.fn)));
    const routesParameters = s.ofType('AWS::CloudFormation::Stack').find(([id]) => id.startsWith('HttpRoutes'))![1].Properties.Parameters as Record<string, unknown>;
    const resolved = (v: unknown) => (typeof v === 'object' && v && 'Ref' in v && routesParameters[(v as { Ref: string }).Ref] !== undefined ? routesParameters[(v as { Ref: string }).Ref] : v);
    /** Names a ServiceFunction unqualified ($LATEST): its GetAtt Arn or its Ref. */
    const unqualified = (v: unknown) => {
      const text = json(resolved(v));
      return [...functionIds].some((id) => text.includes(`{"Fn::GetAtt":["${id}","Arn"]}`) || text === `{"Ref":"${id}"}`);
    };
    const names = (v: unknown) => [...aliasIds].some((id) => json(resolved(v)).includes(`"Ref":"${id}"`));

    const integrations = everywhere(s, 'AWS::ApiGatewayV2::Integration').filter(([, i]) => !unqualified(i.Properties.IntegrationUri) || names(i.Properties.IntegrationUri));
    expect(integrations.length).toBeGreaterThan(0);
    for (const [id, i] of everywhere(s, 'AWS::ApiGatewayV2::Integration')) expect(unqualified(i.Properties.IntegrationUri), id).toBe(false);
    for (const [id, p] of everywhere(s, 'AWS::Lambda::Permission')) expect(unqualified(p.Properties.FunctionName), id).toBe(false);
    for (const [id, m] of s.ofType('AWS::Lambda::EventSourceMapping')) expect(names(m.Properties.FunctionName), id).toBe(true);
    for (const [id, sub] of s.ofType('AWS::SNS::Subscription').filter(([, x]) => x.Properties.Protocol === 'lambda')) expect(names(sub.Properties.Endpoint), id).toBe(true);
    for (const [id, config] of s.ofType('AWS::Lambda::EventInvokeConfig')) expect(config.Properties.Qualifier, id).not.toBe('$LATEST');
    const [[, notifications]] = s.ofType('Custom::S3BucketNotifications');
    for (const c of notifications.Properties.NotificationConfiguration.LambdaFunctionConfigurations) expect(names(c.LambdaFunctionArn)).toBe(true);
    const substitutions = s.resources[s.logicalIdOf(s.stack.extraction.stateMachine)].Properties.DefinitionSubstitutions as Record<string, unknown>;
    for (const [key, arn] of Object.entries(substitutions).filter(([k]) => k.endsWith('FunctionArn'))) expect(names(arn), key).toBe(true);
    const schedulerInvoke = s
      .ofType('AWS::IAM::Policy')
      .filter(([, p]) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === s.logicalIdOf(s.stack.messaging.scheduler.role)))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string; Resource: unknown }[])
      .filter((st) => st.Action === 'lambda:InvokeFunction')
      .flatMap((st) => [st.Resource].flat());
    expect(schedulerInvoke.length).toBe(3);
    for (const arn of schedulerInvoke) expect(names(arn)).toBe(true);
  });

  it('keeps the main stack under 450 resources with the routes in their nested stack', () => {
    const count = Object.keys(s.resources).length;
    const routes = Object.keys(s.nested(s.stack.httpApi.routesStack).resources).length;
    console.info(`main stack: ${count} resources (routes nested stack: ${routes}; without safe deployments: ${Object.keys(plain.resources).length})`);
    expect(count).toBeLessThanOrEqual(450);
    expect(routes).toBeLessThanOrEqual(450);
    expect(Object.keys(plain.resources).length).toBeLessThan(count);
  });
});

describe('safe deployments off (safeDeployments=false)', () => {
  it('has no version, alias or CodeDeploy, and invokers name the functions', () => {
    for (const type of ['AWS::Lambda::Alias', 'AWS::Lambda::Version', 'AWS::CodeDeploy::Application', 'AWS::CodeDeploy::DeploymentGroup']) expect(everywhere(plain, type), type).toEqual([]);
    for (const { name, fn } of serviceFunctions(plain.stack)) {
      expect(fn.live, name).toBe(fn.fn);
      expect(fn.alias, name).toBeUndefined();
    }
    const [[, mapping]] = plain.ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) => json(m.Properties.FunctionName).includes(plain.logicalIdOf(plain.stack.webhooks.delivery.fn)));
    expect(mapping.Properties.FunctionName).toEqual({ Ref: plain.logicalIdOf(plain.stack.webhooks.delivery.fn) });
  });

  it('refuses a value that is neither true nor false', async () => {
    await expect(synthesize({ safeDeployments: 'sometimes' })).rejects.toThrow(/safeDeployments must be true or false/);
  });
});

describe("partner stage and API Gateway's account CloudWatch role", () => {
  const partner = (x: Synthesized) => x.nested(x.stack.partnerApi!);
  const stageOf = (x: Synthesized) => partner(x).ofType('AWS::ApiGateway::Stage')[0][1].Properties;

  it('by default creates no account role and no stage logging (API Gateway would refuse it without the role)', () => {
    expect(everywhere(s, 'AWS::ApiGateway::Account')).toEqual([]);
    expect(partner(s).ofType('AWS::IAM::Role').filter(([, r]) => json(r.Properties.AssumeRolePolicyDocument).includes('apigateway.amazonaws.com'))).toEqual([]);
    expect(stageOf(s).AccessLogSetting).toBeUndefined();
    // Method settings carry the stage throttle only: no execution logging level, no data trace.
    for (const m of stageOf(s).MethodSettings ?? []) expect(m).toMatchObject({ DataTraceEnabled: false, ThrottlingRateLimit: 100 });
    expect(json(stageOf(s).MethodSettings)).not.toContain('LoggingLevel');
    expect(stageOf(s).TracingEnabled).toBe(true);
  });

  it('with apiGatewayCloudWatchRole=true creates the account role, retained on destroy, and logs', () => {
    const [[accountId, account]] = partner(opted).ofType('AWS::ApiGateway::Account');
    expect(account.DeletionPolicy).toBe('Retain');
    const roleId = account.Properties.CloudWatchRoleArn['Fn::GetAtt'][0] as string;
    expect(partner(opted).resources[roleId].DeletionPolicy).toBe('Retain');
    expect(accountId).toBeDefined();
    expect(stageOf(opted).AccessLogSetting.DestinationArn).toBeDefined();
    expect(stageOf(opted).MethodSettings).toEqual([expect.objectContaining({ LoggingLevel: 'ERROR' })]);
    // With an access log, the dashboard's partner throttles count its 429s (usage plan throttle and quota).
    const filters = partner(opted).ofType('AWS::Logs::MetricFilter').filter(([, f]) => f.Properties.FilterPattern === '{ $.status = "429" }');
    expect(filters.map(([, f]) => f.Properties.MetricTransformations[0].MetricName)).toEqual(['tcs-dev-Partner429']);
  });

  it('with apiGatewayCloudWatchRole=existing logs through the role the account has, creating none', () => {
    expect(everywhere(plain, 'AWS::ApiGateway::Account')).toEqual([]);
    expect(stageOf(plain).AccessLogSetting.DestinationArn).toBeDefined();
  });

  it('refuses any other value', async () => {
    await expect(synthesize({ apiGatewayCloudWatchRole: 'yes' })).rejects.toThrow(/apiGatewayCloudWatchRole must be true, existing or false/);
  });
});

describe('inbound mail without a mail domain', () => {
  it('creates no receipt rule set, rule, inbound-mail bucket or activation output', () => {
    expect(s.stack.messaging.inboundMail).toBeUndefined();
    s.template.resourceCountIs('AWS::SES::ReceiptRuleSet', 0);
    s.template.resourceCountIs('AWS::SES::ReceiptRule', 0);
    expect(Object.keys(s.template.toJSON().Outputs)).not.toContain('InboundMailActivateCommand');
  });
});

describe('stack outputs the runbook reads', () => {
  const OUTPUTS = {
    WebhookDeliveryQueueUrl: (x: Synthesized) => ({ Ref: x.logicalIdOf(x.stack.webhooks.queue) }),
    WebhookDeliveryDlqUrl: (x: Synthesized) => ({ Ref: x.logicalIdOf(x.stack.webhooks.deadLetterQueue) }),
    WebhookFanoutDlqUrl: (x: Synthesized) => ({ Ref: x.logicalIdOf(x.stack.webhooks.fanoutDeadLetterQueue) }),
    WorkerFailuresQueueUrl: (x: Synthesized) => ({ Ref: x.logicalIdOf(x.stack.messaging.failureQueue) }),
    SchedulerDlqUrl: (x: Synthesized) => ({ Ref: x.logicalIdOf(x.stack.messaging.scheduler.deadLetterQueue) }),
    ScheduleGroupName: (x: Synthesized) => x.stack.resolve(x.stack.messaging.scheduler.group.scheduleGroupName),
  } as const;

  it('outputs every dead-letter queue URL and the schedule group', () => {
    const outputs = s.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    for (const [key, value] of Object.entries(OUTPUTS)) expect(outputs[key]?.Value, key).toEqual(value(s));
  });

  it('docs/runbook.md sets its variables from those outputs, and uses no queue variable it does not set', () => {
    const runbook = readFileSync(new URL('../../docs/runbook.md', import.meta.url), 'utf8');
    for (const key of [...Object.keys(OUTPUTS), 'TableName', 'ExtractionStateMachineArn']) expect(runbook, key).toMatch(new RegExp(`=\\$\\(out ${key}\\)`));
    expect(runbook).toContain("describe-stacks --stack-name \"$STACK\"");
    const used = new Set([...runbook.matchAll(/\$\{?([A-Z_]+_(?:URL|GROUP))\b/g)].map((m) => m[1]));
    const set = new Set([...runbook.matchAll(/^([A-Z_]+)=\$\(out /gm)].map((m) => m[1]));
    for (const name of used) expect(set.has(name), name).toBe(true);
  });

  it('no longer advises --on-demand-throughput as a throttling fix without saying it is a maximum', () => {
    const runbook = readFileSync(new URL('../../docs/runbook.md', import.meta.url), 'utf8');
    const section = runbook.slice(runbook.indexOf('## DynamoDB throttled requests'), runbook.indexOf('## Webhook delivery DLQ'));
    expect(section).toMatch(/sets a \*maximum\*/);
    expect(section).toMatch(/MaxReadRequestUnits=-1,MaxWriteRequestUnits=-1/);
    expect(section).toMatch(/--warm-throughput/);
  });
});

describe('record retention', () => {
  const rulesOf = (x: Synthesized) => x.resources[x.logicalIdOf(x.stack.extraction.bucket)].Properties.LifecycleConfiguration.Rules as Record<string, any>[];

  it('archives old document versions and deletes them only after recordRetentionYears (default 5, here 7)', () => {
    const archive = (x: Synthesized) => rulesOf(x).find((r) => r.Id === 'archive-old-document-versions')!;
    expect(archive(s)).toMatchObject({ Prefix: 'org/', NoncurrentVersionTransitions: [{ StorageClass: 'DEEP_ARCHIVE', TransitionInDays: 30 }], NoncurrentVersionExpiration: { NoncurrentDays: 1827 } });
    expect(archive(plain).NoncurrentVersionExpiration).toEqual({ NoncurrentDays: yearsInDays(7) });
  });

  it('refuses a retention that is not a whole number of years', async () => {
    await expect(synthesize({ recordRetentionYears: '2.5' })).rejects.toThrow(/recordRetentionYears must be a whole number of years/);
  });

  it('keeps PITR, and adds an AWS Backup plan for the table only when asked (daily 35 days, monthly for the years given)', () => {
    for (const x of [s, opted]) expect(x.resources[x.logicalIdOf(x.stack.table.table)].Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    s.template.resourceCountIs('AWS::Backup::BackupPlan', 0);
    const [[, plan]] = opted.ofType('AWS::Backup::BackupPlan');
    const rules = plan.Properties.BackupPlan.BackupPlanRule as { RuleName: string; Lifecycle: { DeleteAfterDays: number } }[];
    expect(rules.map((r) => [r.RuleName, r.Lifecycle.DeleteAfterDays])).toEqual([
      ['daily', DAILY_BACKUP_DAYS],
      ['monthly-records', yearsInDays(10)],
    ]);
    const [[, selection]] = opted.ofType('AWS::Backup::BackupSelection');
    expect(json(selection.Properties.BackupSelection.Resources)).toContain(opted.logicalIdOf(opted.stack.table.table));
    const [[, vault]] = opted.ofType('AWS::Backup::BackupVault');
    expect(vault.DeletionPolicy).toBe('Retain');
  });

  it("lets browsers use the documents bucket from corsAllowOrigins' origins only", () => {
    const cors = (x: Synthesized) => x.resources[x.logicalIdOf(x.stack.extraction.bucket)].Properties.CorsConfiguration.CorsRules[0].AllowedOrigins;
    expect(cors(s)).toEqual(['*']);
    expect(cors(plain)).toEqual(['https://tc.hillcountry.example']);
  });
});

describe('cdk-nag with the opt-in context', () => {
  it('synthesizes without unacknowledged findings in each variant', () => {
    for (const x of [plain, opted]) {
      const report = JSON.parse(readFileSync(`${x.outdir}/validation-report.json`, 'utf8'));
      expect(report.pluginReports.flatMap((p: { violations: { ruleName: string }[] }) => p.violations.map((v) => v.ruleName))).toEqual([]);
    }
  });
});

/**
 * Checks, from the template alone, that each AWS service (or the role a service assumes) may do what the stack
 * asks of it, each judged by @cloud-copilot/iam-simulate (./simulate.ts):
 * - SES receipt rules: `ses.amazonaws.com` → `s3:PutObject` into the rule's bucket and, when that bucket's default
 *   encryption is a KMS key, `kms:GenerateDataKey` on the key (S3 calls KMS as the requester); SNS/Lambda actions.
 * - SES configuration-set event destinations: `ses.amazonaws.com` → `sns:Publish` (+ the topic's key).
 * - CloudWatch alarms: `cloudwatch.amazonaws.com` → `sns:Publish` on each action topic (+ `kms:GenerateDataKey`,
 *   `kms:Decrypt` on the topic's key), with the alarm as `aws:SourceArn`.
 * - EventBridge Scheduler: `scheduler.amazonaws.com` may assume the schedule role; the role → `lambda:InvokeFunction`
 *   on the targets, `sqs:SendMessage` on the dead-letter queue (+ its key). Schedules are `AWS::Scheduler::Schedule`
 *   resources, and those functions create at run time: a function's `SCHEDULER_ROLE_ARN`, `SCHEDULER_DLQ_ARN`,
 *   `SCHEDULE_GROUP` and `SCHEDULE_TARGET_<NAME>_ARN` variables (lib/messaging/scheduler.ts). The trust policy is
 *   judged with the schedule group as `aws:SourceArn`, as Scheduler sends it.
 * - S3 notifications: `s3.amazonaws.com` → `lambda:InvokeFunction` / `sqs:SendMessage` / `sns:Publish`.
 * - Step Functions: `states.amazonaws.com` may assume the state machine's role; the role →
 *   `lambda:InvokeFunction` on every function its definition names.
 * - API Gateway: `apigateway.amazonaws.com` → `lambda:InvokeFunction` for each HTTP API route, REST method and
 *   REST authorizer, with the execute-api ARN of the request as `aws:SourceArn`.
 * - SNS subscriptions: `sns.amazonaws.com` → `lambda:InvokeFunction` / `sqs:SendMessage` (+ the queue's key).
 * - Lambda acting with a function's role: event source mappings and destinations (./lambda-service.ts).
 * - CodeDeploy shifting the `live` aliases and reading the rollback alarms (./codedeploy.ts).
 */
import { codeDeployChecks } from './codedeploy.ts';
import { lambdaServiceChecks } from './lambda-service.ts';
import { listOf, ResourcePolicies, roleByArn } from './policies.ts';
import { accountOf, assumeRole, asRole, bucketDefaultKey, keyArn, kmsFor, queueKey, service, topicKey, type Pending } from './requests.ts';
import { authorize, type AuthRequest, type Decision } from './simulate.ts';
import type { DeployedTemplate } from './template.ts';

/** One judged service access. */
export interface PrincipalCheck extends Omit<Pending, 'identity'> {
  decision: Decision;
  reason: string;
}

/** Runs every check on the template. */
export async function checkServicePrincipals(t: DeployedTemplate): Promise<PrincipalCheck[]> {
  const policies = new ResourcePolicies(t);
  const pending = [
    ...sesChecks(t),
    ...alarmChecks(t),
    ...schedulerChecks(t),
    ...s3NotificationChecks(t),
    ...stateMachineChecks(t),
    ...apiGatewayChecks(t),
    ...snsSubscriptionChecks(t),
    ...lambdaServiceChecks(t),
    ...codeDeployChecks(t),
  ];
  return judgePending(t, pending, policies);
}

/**
 * Judges requests of service principals or of role sessions (./requests.ts `service`, `asRole`) with the target's
 * resource policy from the template.
 */
export async function judgePending(t: DeployedTemplate, pending: readonly Pending[], policies = new ResourcePolicies(t)): Promise<PrincipalCheck[]> {
  const out: PrincipalCheck[] = [];
  for (const { identity, ...p } of pending) {
    const resourcePolicy = policies.for(p.resource);
    const req: AuthRequest = { ...p, resourceAccount: accountOf(p.resource) ?? t.account, identity, ...(resourcePolicy ? { resourcePolicy } : {}) };
    out.push({ ...p, ...(await authorize(req)) });
  }
  return out;
}

/**
 * Denials grouped by what was refused: `<decision> <principal> <action> <resource>: <reason> [<n>: <subjects>]`,
 * one line per group (41 alarms refused by one topic policy make one line).
 */
export function summarizeDenials(checks: readonly PrincipalCheck[]): string[] {
  const groups = new Map<string, string[]>();
  for (const c of checks.filter((x) => x.decision !== 'Allowed')) {
    const key = `${c.decision} ${c.principal} ${c.action} ${c.resource}: ${c.reason}`;
    groups.set(key, [...(groups.get(key) ?? []), c.subject]);
  }
  return [...groups].map(([key, subjects]) => `${key} [${subjects.length}: ${subjects.slice(0, 3).join(', ')}${subjects.length > 3 ? ', …' : ''}]`);
}

/** One line per check: `<decision> <principal> <action> <resource> (<subject>): <reason>`. */
export function formatChecks(checks: readonly PrincipalCheck[]): string {
  return checks.map((c) => `${c.decision} ${c.principal} ${c.action} ${c.resource} (${c.subject}): ${c.reason}`).join('\n');
}

/** SES receipt rules and configuration-set event destinations. */
function sesChecks(t: DeployedTemplate): Pending[] {
  const out: Pending[] = [];
  const ses = 'ses.amazonaws.com';
  for (const loc of t.ofType('AWS::SES::ReceiptRule')) {
    const p = t.props(loc);
    const ruleArn = `arn:${t.partition}:ses:${t.region}:${t.account}:receipt-rule-set/${p.RuleSetName as string}:receipt-rule/${(p.Rule.Name as string | undefined) ?? t.ref(loc)}`;
    const ctx = { 'aws:SourceAccount': t.account, 'aws:SourceArn': ruleArn };
    const subject = `receipt rule ${loc.logicalId}`;
    for (const action of (p.Rule.Actions ?? []) as Array<Record<string, any>>) {
      if (action.S3Action) {
        const { BucketName: bucket, ObjectKeyPrefix: prefix = '', KmsKeyArn: sesKey } = action.S3Action as Record<string, string>;
        const bucketArn = `arn:${t.partition}:s3:::${bucket}`;
        out.push(service(subject, ses, 's3:PutObject', `${bucketArn}/${prefix}message-id`, ctx));
        out.push(...kmsFor(subject, ses, keyArn(t, sesKey), ['kms:Encrypt', 'kms:GenerateDataKey'], ctx));
        out.push(...kmsFor(subject, ses, bucketDefaultKey(t, bucket!), ['kms:GenerateDataKey'], { ...ctx, 'kms:ViaService': `s3.${t.region}.amazonaws.com` }));
      }
      if (action.LambdaAction) out.push(service(subject, ses, 'lambda:InvokeFunction', action.LambdaAction.FunctionArn, ctx));
      if (action.SNSAction) {
        out.push(service(subject, ses, 'sns:Publish', action.SNSAction.TopicArn, ctx));
        out.push(...kmsFor(subject, ses, topicKey(t, action.SNSAction.TopicArn), ['kms:GenerateDataKey', 'kms:Decrypt'], ctx));
      }
    }
  }
  for (const loc of t.ofType('AWS::SES::ConfigurationSetEventDestination')) {
    const p = t.props(loc);
    const topic = p.EventDestination?.SnsDestination?.TopicARN as string | undefined;
    if (!topic) continue;
    const ctx = { 'aws:SourceAccount': t.account, 'aws:SourceArn': `arn:${t.partition}:ses:${t.region}:${t.account}:configuration-set/${p.ConfigurationSetName as string}` };
    const subject = `event destination ${loc.logicalId}`;
    out.push(service(subject, ses, 'sns:Publish', topic, ctx));
    out.push(...kmsFor(subject, ses, topicKey(t, topic), ['kms:GenerateDataKey', 'kms:Decrypt'], ctx));
  }
  return out;
}

/** CloudWatch alarm actions that publish to SNS topics. */
function alarmChecks(t: DeployedTemplate): Pending[] {
  const out: Pending[] = [];
  for (const loc of t.ofType('AWS::CloudWatch::Alarm')) {
    const p = t.props(loc);
    const alarmArn = `arn:${t.partition}:cloudwatch:${t.region}:${t.account}:alarm:${(p.AlarmName as string | undefined) ?? t.ref(loc)}`;
    const ctx = { 'aws:SourceAccount': t.account, 'aws:SourceArn': alarmArn };
    const topics = new Set([...listOf<string>(p.AlarmActions), ...listOf<string>(p.OKActions), ...listOf<string>(p.InsufficientDataActions)].filter((a) => a.split(':')[2] === 'sns'));
    for (const topic of topics) {
      const subject = `alarm ${loc.logicalId}`;
      out.push(service(subject, 'cloudwatch.amazonaws.com', 'sns:Publish', topic, ctx));
      out.push(...kmsFor(subject, 'cloudwatch.amazonaws.com', topicKey(t, topic), ['kms:GenerateDataKey', 'kms:Decrypt'], ctx));
    }
  }
  return out;
}

/** EventBridge Scheduler: its role's trust, targets and dead-letter queue. */
function schedulerChecks(t: DeployedTemplate): Pending[] {
  const schedules = new Map<string, { targets: Set<string>; dlqs: Set<string>; groups: Set<string> }>();
  const groupArn = (name: string) => `arn:${t.partition}:scheduler:${t.region}:${t.account}:schedule-group/${name}`;
  const add = (role: string, targets: string[], group: string, dlq?: string) => {
    const s = schedules.get(role) ?? { targets: new Set<string>(), dlqs: new Set<string>(), groups: new Set<string>() };
    targets.forEach((x) => s.targets.add(x));
    s.groups.add(groupArn(group));
    if (dlq) s.dlqs.add(dlq);
    schedules.set(role, s);
  };
  for (const loc of t.ofType('AWS::Scheduler::Schedule')) {
    const p = t.props(loc);
    const target = p.Target as { Arn: string; RoleArn: string; DeadLetterConfig?: { Arn?: string } };
    add(target.RoleArn, [target.Arn], p.GroupName ?? 'default', target.DeadLetterConfig?.Arn);
  }
  for (const loc of t.ofType('AWS::Lambda::Function')) {
    const env = (t.props(loc).Environment?.Variables ?? {}) as Record<string, string>;
    if (!env.SCHEDULER_ROLE_ARN) continue;
    const targets = Object.entries(env).filter(([k]) => /^SCHEDULE_TARGET_\w+_ARN$/.test(k)).map(([, v]) => v);
    add(env.SCHEDULER_ROLE_ARN, targets, env.SCHEDULE_GROUP ?? 'default', env.SCHEDULER_DLQ_ARN);
  }
  const out: Pending[] = [];
  for (const [roleArn, { targets, dlqs, groups }] of schedules) {
    const subject = `scheduler role ${roleByArn(t, roleArn)?.logicalId ?? roleArn}`;
    for (const group of groups) out.push(assumeRole(t, subject, 'scheduler.amazonaws.com', roleArn, group));
    for (const target of targets) out.push(asRole(t, subject, roleArn, 'lambda:InvokeFunction', target));
    for (const dlq of dlqs) {
      out.push(asRole(t, subject, roleArn, 'sqs:SendMessage', dlq));
      const key = queueKey(t, dlq);
      const via = { 'kms:ViaService': `sqs.${t.region}.amazonaws.com` };
      if (key) out.push(asRole(t, subject, roleArn, 'kms:GenerateDataKey', key, via), asRole(t, subject, roleArn, 'kms:Decrypt', key, via));
    }
  }
  return out;
}

/** S3 event notifications (CDK's `Custom::S3BucketNotifications` and a bucket's own `NotificationConfiguration`). */
function s3NotificationChecks(t: DeployedTemplate): Pending[] {
  const configs: Array<{ bucket: string; config: Record<string, any>; subject: string }> = [];
  for (const loc of t.ofType('Custom::S3BucketNotifications')) {
    const p = t.props(loc);
    configs.push({ bucket: p.BucketName, config: p.NotificationConfiguration ?? {}, subject: `bucket notifications ${loc.logicalId}` });
  }
  for (const loc of t.ofType('AWS::S3::Bucket')) {
    const config = t.props(loc).NotificationConfiguration;
    if (config) configs.push({ bucket: t.ref(loc), config, subject: `bucket notifications ${loc.logicalId}` });
  }
  const out: Pending[] = [];
  const s3 = 's3.amazonaws.com';
  for (const { bucket, config, subject } of configs) {
    const ctx = { 'aws:SourceAccount': t.account, 'aws:SourceArn': `arn:${t.partition}:s3:::${bucket}` };
    for (const c of listOf<Record<string, string>>(config.LambdaFunctionConfigurations)) out.push(service(subject, s3, 'lambda:InvokeFunction', c.LambdaFunctionArn ?? c.Function!, ctx));
    for (const c of listOf<Record<string, string>>(config.QueueConfigurations)) {
      const queue = c.QueueArn ?? c.Queue!;
      out.push(service(subject, s3, 'sqs:SendMessage', queue, ctx), ...kmsFor(subject, s3, queueKey(t, queue), ['kms:GenerateDataKey', 'kms:Decrypt'], ctx));
    }
    for (const c of listOf<Record<string, string>>(config.TopicConfigurations)) {
      const topic = c.TopicArn ?? c.Topic!;
      out.push(service(subject, s3, 'sns:Publish', topic, ctx), ...kmsFor(subject, s3, topicKey(t, topic), ['kms:GenerateDataKey', 'kms:Decrypt'], ctx));
    }
  }
  return out;
}

/** State machines: their role's trust and every Lambda function their definition invokes. */
function stateMachineChecks(t: DeployedTemplate): Pending[] {
  const out: Pending[] = [];
  for (const loc of t.ofType('AWS::StepFunctions::StateMachine')) {
    const p = t.props(loc);
    let definition = typeof p.DefinitionString === 'string' ? p.DefinitionString : JSON.stringify(p.Definition ?? {});
    for (const [name, value] of Object.entries((p.DefinitionSubstitutions ?? {}) as Record<string, string>)) definition = definition.split(`\${${name}}`).join(String(value));
    const functions = new Set(definition.match(/arn:[\w-]+:lambda:[\w-]+:\d{12}:function:[\w-]+(?::[\w$-]+)?/g) ?? []);
    const subject = `state machine ${loc.logicalId}`;
    out.push(assumeRole(t, subject, 'states.amazonaws.com', p.RoleArn, t.ref(loc)));
    for (const fn of functions) out.push(asRole(t, subject, p.RoleArn, 'lambda:InvokeFunction', fn));
  }
  return out;
}

/** The function ARN in an API Gateway Lambda integration URI (`…:lambda:path/2015-03-31/functions/<arn>/invocations`). */
const functionOfUri = (uri: string): string | undefined => /\/functions\/(arn:[^/]+)\/invocations$/.exec(uri)?.[1] ?? (uri.startsWith('arn:') && uri.includes(':lambda:') && uri.includes(':function:') ? uri : undefined);

/** HTTP API routes, REST API methods and REST authorizers backed by Lambda. */
function apiGatewayChecks(t: DeployedTemplate): Pending[] {
  const out: Pending[] = [];
  const apigw = 'apigateway.amazonaws.com';
  const executeApi = (api: string, rest: string) => `arn:${t.partition}:execute-api:${t.region}:${t.account}:${api}/${rest}`;
  const ctx = (sourceArn: string) => ({ 'aws:SourceAccount': t.account, 'aws:SourceArn': sourceArn });
  for (const template of t.assembly.templates) {
    const of = (type: string) => template.ofType(type).map((id) => ({ id, p: template.resolve(template.resources[id]!.Properties ?? {}) as Record<string, any> }));
    const integrations = new Map(of('AWS::ApiGatewayV2::Integration').map(({ id, p }) => [String(template.resolve({ Ref: id })), p]));
    const stages = of('AWS::ApiGatewayV2::Stage');
    for (const { id, p } of of('AWS::ApiGatewayV2::Route')) {
      const integration = integrations.get(String(p.Target ?? '').replace(/^integrations\//, ''));
      const fn = integration && functionOfUri(String(integration.IntegrationUri ?? ''));
      if (!fn) continue;
      const stage = stages.find((s) => s.p.ApiId === p.ApiId)?.p.StageName ?? '$default';
      const [method, path] = p.RouteKey === '$default' ? ['GET', '/'] : String(p.RouteKey).split(' ');
      const sourceArn = executeApi(p.ApiId, `${stage}/${method === 'ANY' ? 'GET' : method}${path}`);
      out.push(service(`route ${id} (${p.RouteKey as string})`, apigw, 'lambda:InvokeFunction', fn, ctx(sourceArn)));
    }
    const resources = new Map(of('AWS::ApiGateway::Resource').map(({ id, p }) => [String(template.resolve({ Ref: id })), p]));
    const pathOf = (resourceId: string): string => {
      const r = resources.get(resourceId);
      return r ? `${pathOf(r.ParentId)}/${r.PathPart as string}` : '';
    };
    const restStages = of('AWS::ApiGateway::Stage');
    for (const { id, p } of of('AWS::ApiGateway::Method')) {
      const fn = p.Integration?.Type?.startsWith('AWS') ? functionOfUri(String(p.Integration.Uri ?? '')) : undefined;
      if (!fn) continue;
      const stage = restStages.find((s) => s.p.RestApiId === p.RestApiId)?.p.StageName ?? 'prod';
      const sourceArn = executeApi(p.RestApiId, `${stage}/${p.HttpMethod === 'ANY' ? 'GET' : p.HttpMethod}${pathOf(p.ResourceId) || '/'}`);
      out.push(service(`method ${id}`, apigw, 'lambda:InvokeFunction', fn, ctx(sourceArn)));
    }
    for (const { id, p } of of('AWS::ApiGateway::Authorizer')) {
      const fn = functionOfUri(String(p.AuthorizerUri ?? ''));
      if (fn) out.push(service(`authorizer ${id}`, apigw, 'lambda:InvokeFunction', fn, ctx(executeApi(p.RestApiId, `authorizers/${String(template.resolve({ Ref: id }))}`))));
    }
  }
  return out;
}

/** SNS subscriptions that deliver to Lambda functions or SQS queues. */
function snsSubscriptionChecks(t: DeployedTemplate): Pending[] {
  const out: Pending[] = [];
  const sns = 'sns.amazonaws.com';
  for (const loc of t.ofType('AWS::SNS::Subscription')) {
    const p = t.props(loc);
    const ctx = { 'aws:SourceAccount': t.account, 'aws:SourceArn': p.TopicArn as string };
    const subject = `subscription ${loc.logicalId}`;
    if (p.Protocol === 'lambda') out.push(service(subject, sns, 'lambda:InvokeFunction', p.Endpoint, ctx));
    if (p.Protocol === 'sqs') out.push(service(subject, sns, 'sqs:SendMessage', p.Endpoint, ctx), ...kmsFor(subject, sns, queueKey(t, p.Endpoint), ['kms:GenerateDataKey', 'kms:Decrypt'], ctx));
  }
  return out;
}

/**
 * On-call for every function (issue 27): every `AWS::Lambda::Function` of the synthesized app, nested stacks included,
 * has an alarm reading its AWS/Lambda `Errors` (alone or in an alarm's metric math; the alarm may be in another stack
 * of the app, referenced through a nested stack's output or parameter). CDK's own custom-resource handlers are
 * excluded by name, with the reason. Also: the alarms issue 27 added (thresholds, refusals left out of the partner
 * authorizer's, fan-out notification failures), their rollback wiring, and the dashboard's new widgets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, type CfnElement, Duration, NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { FUNCTION_ALARM_THRESHOLDS } from '#lib/alarms/function-alarms';
import { AUTHORIZER_REFUSAL_TERMS, PARTNER_AUTHORIZER_ERRORS_THRESHOLD } from '#lib/alarms/partner-alarms';
import { NOTIFICATION_FAILURES_THRESHOLD } from '#lib/webhook-pipeline';
import { synthesizeDefault, type Synthesized } from './synth.ts';

/**
 * Functions that need no errors alarm, by logical id prefix (CDK adds a hash), with the reason. Only CDK's own
 * custom-resource handlers belong here.
 */
const EXCLUDED: ReadonlyMap<string, string> = new Map([
  [
    'BucketNotificationsHandler050a0587b7544547bf325f094a3db834',
    "CDK's Custom::S3BucketNotifications provider (aws-s3): CloudFormation invokes it only while deploying the bucket's notifications, and its failure fails that deployment in front of the operator.",
  ],
]);

type Json = Record<string, any>;

/**
 * The functions of `root`'s app (root and nested stacks) that no alarm watches the `Errors` of, as
 * `<stack path>/<logical id>`. An alarm counts when its metric, or a metric of its math, is AWS/Lambda `Errors` with a
 * `FunctionName` dimension naming the function: `{Ref}` in its own stack, a nested stack's output (`Fn::GetAtt
 * [<nested stack>, Outputs.<name>]`) or a nested stack's parameter set by its parent.
 */
function functionsWithoutErrorsAlarm(root: Stack, templateOf: (stack: Stack) => Json): string[] {
  const nested = root.node.findAll().filter((c): c is NestedStack => NestedStack.isNestedStack(c));
  const stacks: Stack[] = [root, ...nested];
  const templates = new Map(stacks.map((st) => [st, templateOf(st)]));
  const key = (st: Stack, id: string) => `${st.node.path}/${id}`;
  const logicalIdOfNested = (ns: NestedStack) => {
    const res = ns.nestedStackResource as CfnElement;
    return Stack.of(res).getLogicalId(res);
  };
  const nestedByResource = new Map(nested.map((ns) => [key(ns.nestedStackParent!, logicalIdOfNested(ns)), ns]));

  const resolve = (st: Stack, value: any): string | undefined => {
    const t = templates.get(st)!;
    if (value && typeof value.Ref === 'string') {
      if (t.Resources?.[value.Ref]?.Type === 'AWS::Lambda::Function') return key(st, value.Ref);
      if (t.Parameters?.[value.Ref] && NestedStack.isNestedStack(st)) {
        const parent = st.nestedStackParent!;
        const set = templates.get(parent)!.Resources[logicalIdOfNested(st)].Properties.Parameters?.[value.Ref];
        return resolve(parent, set);
      }
    }
    const getAtt = value?.['Fn::GetAtt'];
    if (Array.isArray(getAtt) && typeof getAtt[1] === 'string' && getAtt[1].startsWith('Outputs.')) {
      const ns = nestedByResource.get(key(st, getAtt[0]));
      if (ns) return resolve(ns, templates.get(ns)!.Outputs?.[getAtt[1].slice('Outputs.'.length)]?.Value);
    }
    return undefined;
  };

  const alarmed = new Set<string>();
  for (const st of stacks) {
    for (const r of Object.values<Json>(templates.get(st)!.Resources ?? {})) {
      if (r.Type !== 'AWS::CloudWatch::Alarm') continue;
      const metrics: Json[] = [r.Properties, ...(r.Properties.Metrics ?? []).map((m: Json) => m.MetricStat?.Metric).filter(Boolean)];
      for (const m of metrics) {
        if (m.Namespace !== 'AWS/Lambda' || m.MetricName !== 'Errors') continue;
        for (const d of m.Dimensions ?? []) {
          const fn = d.Name === 'FunctionName' ? resolve(st, d.Value) : undefined;
          if (fn) alarmed.add(fn);
        }
      }
    }
  }
  const missing: string[] = [];
  for (const st of stacks) {
    for (const [id, r] of Object.entries<Json>(templates.get(st)!.Resources ?? {})) {
      if (r.Type !== 'AWS::Lambda::Function' || [...EXCLUDED.keys()].some((prefix) => id.startsWith(prefix))) continue;
      if (!alarmed.has(key(st, id))) missing.push(key(st, id));
    }
  }
  return missing;
}

let s: Synthesized;
const templateOf = (st: Stack) => (st === s.stack ? s.template.toJSON() : s.nested(st as NestedStack).template.toJSON());

beforeAll(async () => {
  s = await synthesizeDefault();
}, 300_000);
afterAll(() => s?.cleanup());

describe('every function has an errors alarm', () => {
  it('in the synthesized app, nested stacks included (CDK handlers excluded by name)', () => {
    const functions = [s.stack, ...s.stack.node.findAll().filter((c): c is NestedStack => NestedStack.isNestedStack(c))].flatMap((st) =>
      Object.values<Json>(templateOf(st).Resources).filter((r) => r.Type === 'AWS::Lambda::Function'),
    );
    expect(functions.length).toBeGreaterThan(30);
    expect(functionsWithoutErrorsAlarm(s.stack, templateOf)).toEqual([]);
    // The exclusions name functions that exist (a stale entry would hide nothing, or a renamed function).
    for (const prefix of EXCLUDED.keys()) expect(s.ofType('AWS::Lambda::Function').some(([id]) => id.startsWith(prefix)), prefix).toBe(true);
  });

  it('the check finds a function without one, in the root or a nested stack, and follows cross-stack references', () => {
    const app = new App();
    const root = new Stack(app, 'Root');
    const child = new NestedStack(root, 'Child');
    const fn = (scope: Stack, id: string) =>
      new lambda.Function(scope, id, { runtime: lambda.Runtime.NODEJS_22_X, handler: 'index.handler', code: lambda.Code.fromInline('export const handler = async () => 1;') });
    const errorsAlarm = (scope: Stack, id: string, f: lambda.Function) =>
      new cloudwatch.Alarm(scope, id, { metric: f.metricErrors({ period: Duration.minutes(5) }), threshold: 1, evaluationPeriods: 1 });
    const alarmedHere = fn(root, 'AlarmedHere');
    const unalarmed = fn(root, 'Unalarmed');
    const alarmedFromChild = fn(root, 'AlarmedFromChild');
    const nestedAlarmedFromRoot = fn(child, 'NestedAlarmedFromRoot');
    const nestedUnalarmed = fn(child, 'NestedUnalarmed');
    const inMath = fn(child, 'InMath');
    errorsAlarm(root, 'A1', alarmedHere);
    errorsAlarm(child, 'A2', alarmedFromChild); // parent → nested parameter
    errorsAlarm(root, 'A3', nestedAlarmedFromRoot); // nested output → parent
    new cloudwatch.Alarm(child, 'A4', {
      metric: new cloudwatch.MathExpression({ expression: 'e - t', usingMetrics: { e: inMath.metricErrors(), t: inMath.metricThrottles() } }),
      threshold: 1,
      evaluationPeriods: 1,
    });
    new cloudwatch.Alarm(root, 'NotErrors', { metric: unalarmed.metricThrottles(), threshold: 1, evaluationPeriods: 1 });
    const small = new Map<Stack, Json>([
      [root, Template.fromStack(root).toJSON()],
      [child, Template.fromStack(child).toJSON()],
    ]);
    const idOf = (f: lambda.Function) => Stack.of(f).getLogicalId(f.node.defaultChild as CfnElement);
    expect(functionsWithoutErrorsAlarm(root, (st) => small.get(st)!).sort()).toEqual([`Root/${idOf(unalarmed)}`, `Root/Child/${idOf(nestedUnalarmed)}`].sort());
  });
});

describe('the alarms issue 27 added', () => {
  const propsOf = (alarm: cloudwatch.Alarm) => s.resources[s.logicalIdOf(alarm)].Properties;
  /** The Lambda functions (logical ids) whose Errors an alarm's math sums. */
  const errorsOf = (props: Json) =>
    (props.Metrics as Json[])
      .filter((m) => m.MetricStat?.Metric.MetricName === 'Errors')
      .map((m) => m.MetricStat.Metric.Dimensions[0].Value.Ref as string)
      .sort();

  it('OAuth server and reference site: >= 3 errors in 5 min', () => {
    const a = s.stack.functionAlarms;
    expect(propsOf(a.oauth)).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: s.logicalIdOf(s.stack.oauth.fn.fn) } }],
      Period: 300,
      Threshold: FUNCTION_ALARM_THRESHOLDS.oauthErrors,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(propsOf(a.reference).Dimensions[0].Value.Ref).toMatch(/^ReferenceFn/);
  });

  it('extraction steps and workspace workers: summed errors in 15 min', () => {
    const a = s.stack.functionAlarms;
    const steps = propsOf(a.extractionSteps);
    expect(errorsOf(steps)).toEqual(Object.values(s.stack.extraction.steps).map((f) => s.logicalIdOf(f.fn)).sort());
    expect(steps).toMatchObject({ Threshold: FUNCTION_ALARM_THRESHOLDS.extractionStepErrors, TreatMissingData: 'notBreaching' });
    expect(steps.Metrics.find((m: Json) => m.Expression).Expression).toBe('e0 + e1 + e2 + e3 + e4 + e5');
    const workers = propsOf(a.workspaceWorkers);
    expect(errorsOf(workers)).toEqual([s.logicalIdOf(s.stack.lifecycle.purge.fn), s.logicalIdOf(s.stack.lifecycle.export.fn)].sort());
    expect(workers.Metrics.find((m: Json) => m.MetricStat).MetricStat.Period).toBe(900);
  });

  it('partner authorizer (in the partner nested stack): its errors minus the refusals counted from its log; stage 5xx', () => {
    const p = s.stack.partnerAlarms!;
    const partner = s.nested(s.stack.partnerApi!);
    const nestedPropsOf = (alarm: cloudwatch.Alarm) => partner.resources[Stack.of(alarm).getLogicalId(alarm.node.defaultChild as CfnElement)].Properties;
    const authorizer = nestedPropsOf(p.authorizerErrors);
    expect(authorizer.Threshold).toBe(PARTNER_AUTHORIZER_ERRORS_THRESHOLD);
    expect(authorizer.Metrics.find((m: Json) => m.Expression).Expression).toBe('errors - FILL(refusals, 0)');
    const refusals = authorizer.Metrics.find((m: Json) => m.Id === 'refusals').MetricStat.Metric;
    // Named by the main stack (`tcs-dev`), not by the nested stack's deploy-time name.
    expect(refusals).toEqual({ Namespace: 'TransactionCoordination/Logs', MetricName: 'tcs-dev-PartnerAuthorizerRefusals' });
    const authorizerErrors = authorizer.Metrics.find((m: Json) => m.Id === 'errors').MetricStat.Metric;
    expect(authorizerErrors.Dimensions).toEqual([{ Name: 'FunctionName', Value: { Ref: Stack.of(p).getLogicalId(s.stack.partnerApi!.authorizerFunction.fn.node.defaultChild as CfnElement) } }]);
    partner.template.hasResourceProperties('AWS::Logs::MetricFilter', {
      FilterPattern: AUTHORIZER_REFUSAL_TERMS.map((t) => `"${t}"`).join(' '),
      MetricTransformations: [{ MetricName: 'tcs-dev-PartnerAuthorizerRefusals', MetricNamespace: 'TransactionCoordination/Logs', MetricValue: '1', DefaultValue: 0 }],
    });
    const stage = nestedPropsOf(p.stage5xx);
    const errors = stage.Metrics.find((m: Json) => m.Id === 'errors').MetricStat.Metric;
    expect(errors).toMatchObject({ Namespace: 'AWS/ApiGateway', MetricName: '5XXError' });
    expect(errors.Dimensions.map((d: Json) => d.Name)).toEqual(['ApiName', 'Stage']);
  });

  it('fan-out notification failures (TransactionCoordination, service=webhook-fanout)', () => {
    s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'TransactionCoordination',
      MetricName: 'NotificationFailures',
      Dimensions: [{ Name: 'service', Value: 'webhook-fanout' }],
      Statistic: 'Sum',
      Period: 900,
      Threshold: NOTIFICATION_FAILURES_THRESHOLD,
    });
  });

  it('roll back the OAuth server, the workspace workers and the partner authorizer', () => {
    const alarmsOf = (group: CfnElement, template: Json) =>
      JSON.stringify(template.Resources[Stack.of(group).getLogicalId(group)].Properties.AlarmConfiguration.Alarms);
    const ref = (alarm: cloudwatch.Alarm) => JSON.stringify({ Ref: s.logicalIdOf(alarm) });
    const a = s.stack.functionAlarms;
    expect(alarmsOf(s.stack.oauth.fn.deploymentGroup!.node.defaultChild as CfnElement, s.template.toJSON())).toContain(ref(a.oauth));
    for (const fn of [s.stack.lifecycle.purge, s.stack.lifecycle.export]) {
      expect(alarmsOf(fn.deploymentGroup!.node.defaultChild as CfnElement, s.template.toJSON())).toContain(ref(a.workspaceWorkers));
    }
    // The authorizer's deployment group and its alarm are both in the partner nested stack.
    const partner = s.stack.partnerApi!;
    const authorizerAlarm = s.stack.partnerAlarms!.authorizerErrors;
    expect(alarmsOf(partner.authorizerFunction.deploymentGroup!.node.defaultChild as CfnElement, templateOf(partner))).toContain(
      JSON.stringify({ Ref: partner.getLogicalId(authorizerAlarm.node.defaultChild as CfnElement) }),
    );
    // Not the extraction steps: their errors include users' unreadable documents.
    const step = Object.values(s.stack.extraction.steps)[0];
    expect(alarmsOf(step.deploymentGroup!.node.defaultChild as CfnElement, s.template.toJSON())).not.toContain(ref(a.extractionSteps));
  });
});

describe('dashboard', () => {
  /** The dashboard body with its tokens as `<token>`. */
  let body: string;
  beforeAll(() => {
    const raw = s.resources[s.logicalIdOf(s.stack.dashboard.dashboard)].Properties.DashboardBody as string | { 'Fn::Join': [string, unknown[]] };
    body = typeof raw === 'string' ? raw : raw['Fn::Join'][1].map((p) => (typeof p === 'string' ? p : '<token>')).join('');
  });

  it("charts the service's own metrics, service dimension only", () => {
    for (const [service, name] of [
      ['webhook-delivery', 'DeliveriesFailed'],
      ['webhook-delivery', 'BreakerTrips'],
      ['webhook-fanout', 'NotificationFailures'],
      ['extraction-extractFields', 'ExtractionConfidence'],
    ]) {
      expect(body).toContain(`["TransactionCoordination","${name}","service","${service}"`);
    }
  });

  it("charts the account's Lambda concurrency (no dimension)", () => {
    expect(body).toContain('["AWS/Lambda","ConcurrentExecutions",{');
    expect(body).toContain('["AWS/Lambda","UnreservedConcurrentExecutions",{');
  });

  it('charts the partner stage: requests, 4xx, 5xx, and the 429s of the per-key limits', () => {
    for (const name of ['Count', '4XXError', '5XXError']) expect(body).toContain(`["AWS/ApiGateway","${name}","ApiName","partner-api","Stage","<token>"`);
    expect(body).toContain('["TransactionCoordination","RateLimited","service","api-partner"');
    expect(body).toContain('Partner throttles');
  });

  it('shows the new alarms in its status widget (the partner ones through the nested stack\'s outputs)', () => {
    const raw = JSON.stringify(s.resources[s.logicalIdOf(s.stack.dashboard.dashboard)].Properties.DashboardBody);
    for (const alarm of s.stack.functionAlarms.alarms) expect(raw).toContain(JSON.stringify({ 'Fn::GetAtt': [s.logicalIdOf(alarm), 'Arn'] }));
    const partner = s.stack.partnerApi!;
    const outputs = Object.entries<Json>(templateOf(partner).Outputs ?? {});
    const partnerResource = Stack.of(partner.nestedStackResource!).getLogicalId(partner.nestedStackResource as CfnElement);
    for (const alarm of s.stack.partnerAlarms!.alarms) {
      const arn = { 'Fn::GetAtt': [partner.getLogicalId(alarm.node.defaultChild as CfnElement), 'Arn'] };
      const [name] = outputs.find(([, o]) => JSON.stringify(o.Value) === JSON.stringify(arn)) ?? [];
      expect(name, alarm.node.path).toBeDefined();
      expect(raw).toContain(JSON.stringify({ 'Fn::GetAtt': [partnerResource, `Outputs.${name}`] }));
    }
  });
});

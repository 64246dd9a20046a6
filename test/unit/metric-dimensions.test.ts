/**
 * The CloudWatch custom metrics the deployed service can create, counted from the code: CloudWatch bills each
 * distinct namespace + metric name + dimension set (US$0.30 per metric-month for the first 10,000 at list price),
 * so a per-operation or per-outcome dimension multiplies the bill.
 *
 * - Which metrics: every module that records metrics declares its names with `metricSet` (shared/observability/
 *   powertools.ts) and exports the set; `metrics` exposes no `addMetric` or dimension method, so a name outside a
 *   set, or a dimension other than `service`, does not compile.
 * - Where: each Lambda of the synthesized app (nested stacks included) with `POWERTOOLS_SERVICE_NAME` (the
 *   `service` dimension's value), its entry module, and the modules esbuild bundles from that entry (metafile): a function can emit every
 *   name of every set its bundle holds.
 * - The count (printed): one dimension set per (function's service, name). README "Cost notes" quotes it (checked).
 * The EMF documents themselves (dimensions `[['service']]`, properties) are asserted by
 * test/integration/api-telemetry.test.ts and test/unit/worker-metrics.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENTRIES_DIR } from '#lib/group-entries';
import { STEP_HANDLER_FILES } from '#lib/extraction-pipeline';
import { isMetricSet, METRICS_NAMESPACE, type MetricSet } from '#observability/powertools';
import { synthesizeDefault } from '../infra/synth.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** List price of a custom metric, US$ per metric-month (first 10,000 metrics; billed per hour it is published). */
const PRICE_PER_METRIC_MONTH = 0.3;
/** Upper bound on the count (the per-operation dimensions could create 600–800). */
const MAX_DIMENSION_SETS = 150;

/** The entry module (absolute path) of the function whose `POWERTOOLS_SERVICE_NAME` is `service`. */
function entryOf(service: string): string {
  const group = /^api-(.+)$/.exec(service)?.[1];
  if (group) return path.join(ENTRIES_DIR, `${group}.ts`); // written by the synthesis (lib/group-entries.ts)
  if (service === 'mcp') return path.join(ENTRIES_DIR, 'mcp.ts'); // written by the synthesis (lib/mcp-endpoint.ts)
  const step = /^extraction-(.+)$/.exec(service)?.[1];
  if (step && step in STEP_HANDLER_FILES) return path.join(ROOT, STEP_HANDLER_FILES[step as keyof typeof STEP_HANDLER_FILES]);
  return path.join(ROOT, 'functions', service, 'handler.ts'); // workers: lib/stack.ts `handlerEntryOf`
}

interface Emitter {
  readonly service: string;
  /** Project-relative paths of the bundled modules that declare metric sets. */
  readonly modules: string[];
  readonly names: string[];
}

let emitters: Emitter[];
/** `Namespace|MetricName|service=<value>`, one per CloudWatch custom metric. */
let dimensionSets: Set<string>;

beforeAll(async () => {
  const { stack } = await synthesizeDefault();
  // The construct tree, not one template: it holds the functions of nested stacks too.
  const services = stack.node
    .findAll()
    .filter((c): c is lambda.CfnFunction => c instanceof lambda.CfnFunction)
    .map((fn) => (Stack.of(fn).resolve(fn.environment) as { variables?: Record<string, unknown> } | undefined)?.variables?.POWERTOOLS_SERVICE_NAME)
    .filter((s): s is string => typeof s === 'string');
  expect(services.length).toBeGreaterThan(10);
  expect(new Set(services).size, 'two functions share a service name (their metrics would add up)').toBe(services.length);
  const entries = new Map(services.map((s) => [s, entryOf(s)]));
  for (const [service, entry] of entries) expect(existsSync(entry), `entry of ${service}: ${entry}`).toBe(true);

  const { metafile } = await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries([...entries].map(([service, entry]) => [service, entry])),
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outdir: 'out',
    logLevel: 'silent',
  });
  const inputsOf = new Map(Object.values(metafile.outputs).filter((o) => o.entryPoint).map((o) => [o.entryPoint!, Object.keys(o.inputs)]));

  // Modules that declare metric sets (powertools.ts defines metricSet; it records nothing itself).
  const setsOf = new Map<string, MetricSet<string>[]>();
  const declaring = [...new Set([...inputsOf.values()].flat())].filter(
    (f) => f.endsWith('.ts') && !f.endsWith('shared/observability/powertools.ts') && readFileSync(path.join(ROOT, f), 'utf8').includes('metricSet('),
  );
  for (const file of declaring) {
    const sets = Object.values(await import(pathToFileURL(path.join(ROOT, file)).href)).filter(isMetricSet);
    expect(sets.length, `${file} calls metricSet but exports no metric set`).toBeGreaterThan(0);
    setsOf.set(file, sets);
  }

  emitters = [...entries].map(([service, entry]) => {
    const inputs = inputsOf.get(path.relative(ROOT, entry));
    expect(inputs, `esbuild output of ${service}`).toBeDefined();
    const modules = inputs!.filter((f) => setsOf.has(f));
    return { service, modules, names: [...new Set(modules.flatMap((f) => setsOf.get(f)!.flatMap((s) => [...s.names])))].sort() };
  });
  dimensionSets = new Set(emitters.flatMap((e) => e.names.map((name) => `${METRICS_NAMESPACE}|${name}|service=${e.service}`)));
});

describe('CloudWatch custom metrics the code can emit', () => {
  it('every API function records the request metrics (the access log is in its bundle)', () => {
    const api = emitters.filter((e) => e.service.startsWith('api-'));
    expect(api.length).toBeGreaterThan(5);
    for (const e of api) expect(e.modules, e.service).toContain('shared/http/middleware/access-log.ts');
    for (const e of api) expect(e.names, e.service).toEqual(expect.arrayContaining(['Requests', 'Latency', 'ServerErrors']));
  });

  it('the workers record their own metrics, outcomes as names (inbound email: one per outcome)', () => {
    const of = (service: string) => emitters.find((e) => e.service === service)?.names;
    expect(of('inbound-email')).toEqual(['InboundEmailsDuplicate', 'InboundEmailsThreaded', 'InboundEmailsUnrouted']);
    expect(of('extraction-markFailed')).toEqual(['ExtractionJobsFailed', 'ExtractionStepsFailed', 'ExtractionStepsSucceeded']);
    expect(of('webhook-delivery')).toContain('DeliveriesSucceeded');
  });

  it(`stays under ${MAX_DIMENSION_SETS} dimension sets (the count and its monthly cost at list price are printed)`, () => {
    const count = dimensionSets.size;
    const cost = (count * PRICE_PER_METRIC_MONTH).toFixed(2);
    const perService = emitters.filter((e) => e.names.length).map((e) => `${e.service} ${e.names.length}`).join(', ');
    console.log(`custom metrics (namespace + name + dimension set): ${count} in ${METRICS_NAMESPACE}, at most US$${cost}/month at US$${PRICE_PER_METRIC_MONTH}/metric-month\n  by service: ${perService}`);
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(MAX_DIMENSION_SETS);
  });

  it('alarms and dashboards read only metrics the code emits (name and `service` dimension), or they never see data', async () => {
    const { stack } = await synthesizeDefault();
    const constructs = stack.node.findAll();
    const read: string[] = [];
    const leaves = (m: cloudwatch.IMetric): cloudwatch.Metric[] =>
      m instanceof cloudwatch.MathExpression ? Object.values(m.usingMetrics).flatMap(leaves) : m instanceof cloudwatch.Metric ? [m] : [];
    for (const alarm of constructs.filter((c): c is cloudwatch.Alarm => c instanceof cloudwatch.Alarm)) {
      for (const m of leaves(alarm.metric).filter((x) => x.namespace === METRICS_NAMESPACE)) {
        read.push(`${m.namespace}|${m.metricName}|${Object.entries(m.dimensions ?? {}).map(([k, v]) => `${k}=${v}`).join(',')}`);
      }
    }
    for (const dashboard of constructs.filter((c): c is cloudwatch.CfnDashboard => c instanceof cloudwatch.CfnDashboard)) {
      const body = Stack.of(dashboard).resolve(dashboard.dashboardBody) as string | { 'Fn::Join': [string, unknown[]] };
      const text = typeof body === 'string' ? body : body['Fn::Join'][1].map((p) => (typeof p === 'string' ? p : '<token>')).join('');
      for (const [, name, dims] of text.matchAll(/\["TransactionCoordination","([^"]+)"((?:,"[^"]*","[^"]*")*)/g)) {
        const pairs = [...dims.matchAll(/,"([^"]*)","([^"]*)"/g)].map(([, k, v]) => `${k}=${v}`);
        read.push(`${METRICS_NAMESPACE}|${name}|${pairs.join(',')}`);
      }
    }
    console.log(`alarm and dashboard reads of ${METRICS_NAMESPACE}: ${read.length}`);
    for (const r of read) expect(dimensionSets, r).toContain(r);
  });

  it('README "Cost notes" quotes the count and its cost', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const count = dimensionSets.size;
    expect(readme, 'update README "Cost notes"').toContain(`**${count} custom metrics**`);
    expect(readme, 'update README "Cost notes"').toContain(`**US$${(count * PRICE_PER_METRIC_MONTH).toFixed(2)} a month**`);
  });
});

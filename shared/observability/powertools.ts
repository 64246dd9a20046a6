/**
 * The process's one Logger, one Metrics and (in Lambda, with tracing on) one Tracer, created at module scope as
 * Powertools recommends, so every module of a function logs, counts and traces through the same instances.
 *
 * - Service name: `POWERTOOLS_SERVICE_NAME` (set per function by lib/service-function.ts), else
 *   `transaction-coordination` (local runtime, tests, CLI). Metrics namespace: `TransactionCoordination`.
 * - Logs are one JSON object per line on stdout (Lambda sends them to the function's log group); metrics are
 *   CloudWatch Embedded Metric Format documents on the same stream, declared per module with `metricSet` and
 *   dimensioned by `service` only. `POWERTOOLS_LOG_LEVEL` and
 *   `POWERTOOLS_METRICS_DISABLED` tune them (vitest.config.ts quiets both).
 * - The Tracer, and with it the X-Ray SDK, is loaded only when tracing can work: inside Lambda
 *   (`AWS_EXECUTION_ENV`) and unless `POWERTOOLS_TRACE_ENABLED=false`. Locally the X-Ray SDK is never imported,
 *   so its process-wide async hook costs the local runtime, the tests and the bench nothing.
 */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { Tracer } from '@aws-lambda-powertools/tracer';

/** CloudWatch namespace of every metric the service emits. */
export const METRICS_NAMESPACE = 'TransactionCoordination';

const serviceName = process.env.POWERTOOLS_SERVICE_NAME || 'transaction-coordination';

export const logger = new Logger({ serviceName });

/** The invocation's metrics, flushed by `observability()`; Powertools' own warnings go through the JSON logger. */
const powertoolsMetrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName, logger });

/**
 * The invocation's EMF properties: `metrics.addMetadata(key, value)` puts a string on the invocation's EMF document
 * as a plain property, searchable in CloudWatch Logs Insights but not a dimension, so it creates no custom metric
 * (`filter ispresent(Requests) | stats sum(Requests) by operation`). Metrics themselves are recorded through a
 * `metricSet`; no dimension can be added, so every metric has only Powertools' `service`.
 */
export const metrics: Pick<Metrics, 'addMetadata'> = powertoolsMetrics;

/** A Powertools metric unit (`MetricUnit.Count`, `MetricUnit.Milliseconds`, …). */
export type MetricUnitValue = Parameters<Metrics['addMetric']>[1];

/**
 * The metrics one module records, by name. Every metric of the service has exactly one dimension, `service` (the
 * function's `POWERTOOLS_SERVICE_NAME`), so each name a module lists is one CloudWatch custom metric per function
 * that bundles the module (US$0.30 per metric-month at list price). A dimension is chosen for the alarms that read
 * it (../shared/STYLE.md rule 16), and none reads a per-operation or per-outcome one: an operation, status or outcome is a separate
 * name or an EMF property (`metrics.addMetadata`). test/unit/metric-dimensions.test.ts counts them.
 */
export interface MetricSet<N extends string> {
  /** The names `add` accepts (a module's whole list, so the count above is finite). */
  readonly names: readonly N[];
  /** Adds `value` to metric `name` in the invocation's EMF document (values of one name add up in CloudWatch). */
  add(name: N, unit: MetricUnitValue, value: number): void;
}

/** The names of a `MetricSet` (`MetricNameOf<typeof MY_METRICS>`). */
export type MetricNameOf<S extends MetricSet<string>> = S['names'][number];

const METRIC_SET = Symbol.for('transaction-coordination.metricSet');

/**
 * Declares a module's metric names (export the result: the dimension-count test finds it by its module).
 * @throws Error when a name repeats
 */
export function metricSet<const N extends string>(names: readonly N[]): MetricSet<N> {
  if (new Set(names).size !== names.length) throw new Error(`metricSet: repeated name in ${names.join(', ')}`);
  return Object.freeze({
    [METRIC_SET]: true,
    names: Object.freeze([...names]),
    add: (name: N, unit: MetricUnitValue, value: number) => void powertoolsMetrics.addMetric(name, unit, value),
  });
}

/** Whether `value` is a `metricSet` result. */
export const isMetricSet = (value: unknown): value is MetricSet<string> => typeof value === 'object' && value !== null && METRIC_SET in value;

/** True inside Lambda unless tracing is switched off (then the X-Ray SDK is not even loaded). */
const tracingEnabled = (env: NodeJS.ProcessEnv = process.env): boolean =>
  Boolean(env.AWS_EXECUTION_ENV) && env.POWERTOOLS_TRACE_ENABLED?.toLowerCase() !== 'false';

const xray = tracingEnabled() ? await import('#observability/xray') : undefined;

/** The Tracer, or undefined where tracing is off (locally, in tests, in functions bundled without X-Ray). */
export const tracer: Tracer | undefined = xray?.createTracer(serviceName);

/**
 * An AWS SDK v3 client as every port creates it: captured by the Tracer (one X-Ray subsegment per call) when
 * tracing is on, unchanged otherwise.
 */
export function traced<C>(client: C): C {
  return tracer ? tracer.captureAWSv3Client(client) : client;
}

/** What a request is known by, once the pipeline has learned it (`operationId` from the route, `orgId` from the credential). */
export interface RequestKeys {
  orgId?: string;
  operationId?: string;
}

/**
 * Records what the pipeline learned about the request: the keys are appended to every later log line of the
 * invocation (dropped after it, `resetKeys`) and, when tracing is on, put as X-Ray annotations on the handler's
 * subsegment, as Powertools' example app does with `tracer.putAnnotation`, so traces can be searched by tenant
 * and operation (filter expression `annotation.orgId = "…"`). Empty or missing keys are skipped.
 * @param via the Tracer to annotate with (the process's, undefined where tracing is off; tests pass their own)
 */
export function annotateRequest(keys: RequestKeys, via: Pick<Tracer, 'putAnnotation'> | undefined = tracer): void {
  const known = Object.entries(keys).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].length > 0);
  if (known.length === 0) return;
  logger.appendKeys(Object.fromEntries(known));
  for (const [key, value] of known) via?.putAnnotation(key, value);
}

/**
 * The middlewares every Lambda handler of the service starts with, outermost first: the handler's trace
 * subsegment (when tracing is on; responses are not recorded, they hold customer data), the Lambda context on
 * every log line with appended keys (`orgId`, `operationId`, …) dropped after each invocation so none leaks into
 * the next, and the invocation's metrics flushed as one EMF document. Every handler records at least one metric
 * per invocation (Powertools warns on an empty flush).
 */
export function observability(): middy.MiddlewareObj[] {
  const trace = xray && tracer ? [xray.captureLambdaHandler(tracer, { captureResponse: false })] : [];
  return [...trace, injectLambdaContext(logger, { resetKeys: true }), logMetrics(powertoolsMetrics)] as middy.MiddlewareObj[];
}

/**
 * A worker's Lambda handler: `run` behind `observability()`. The context is optional so tests and the local
 * runtime's stand-ins may call it with the event alone (middy then passes `{}`).
 */
export function observedHandler<E, R>(run: (event: E, context: Context) => Promise<R>): (event: E, context?: Context) => Promise<R> {
  return middy<E, R>().use(observability()).handler(run) as unknown as (event: E, context?: Context) => Promise<R>;
}
